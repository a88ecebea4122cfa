import { EntitySchema } from '@mikro-orm/core';

/** Process-wide switches (for example `ai_overage_enabled`), off unless a row says otherwise. */
export interface SystemSettingEntity {
  key: string;
  value: unknown;
  updatedAt: Date;
}

export const SystemSettingSchema = new EntitySchema<SystemSettingEntity>({
  name: 'SystemSetting',
  tableName: 'system_setting',
  properties: {
    key: { type: 'string', length: 100, primary: true },
    value: { type: 'json' },
    updatedAt: { type: 'Date', columnType: 'timestamptz', defaultRaw: 'now()' },
  },
});
