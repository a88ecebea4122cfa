import type { SystemSettings, SystemSettingsRepository } from '../../core/ai/system-settings.port';
import type { Database } from './database';

/** The one `system_settings` row (id 1), seeded by its migration. */
export class PostgresSystemSettingsRepository implements SystemSettingsRepository {
  constructor(private readonly database: Database) {}

  async get(): Promise<SystemSettings> {
    const row = await this.database.db.selectFrom('system_settings').select('ai_overage_enabled').where('id', '=', 1).executeTakeFirstOrThrow();
    return { aiOverageEnabled: row.ai_overage_enabled };
  }

  async update(changes: Partial<SystemSettings>, at: Date): Promise<SystemSettings> {
    const row = await this.database.db
      .updateTable('system_settings')
      .set({ updated_at: at, ...(changes.aiOverageEnabled === undefined ? {} : { ai_overage_enabled: changes.aiOverageEnabled }) })
      .where('id', '=', 1)
      .returning('ai_overage_enabled')
      .executeTakeFirstOrThrow();
    return { aiOverageEnabled: row.ai_overage_enabled };
  }
}
