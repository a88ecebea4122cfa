import type { SystemSettings, SystemSettingsRepository } from '../../core/ai/system-settings.port';
import type { Database, PreparedSql } from './database';

// Prepared: the copilot reads it on every call, before its first byte.
const GET: PreparedSql = { name: 'system_settings_get', text: 'select ai_overage_enabled from system_settings where id = 1' };

/** The one `system_settings` row (id 1), seeded by its migration. */
export class PostgresSystemSettingsRepository implements SystemSettingsRepository {
  constructor(private readonly database: Database) {}

  async get(): Promise<SystemSettings> {
    const [row] = await this.database.select<{ ai_overage_enabled: boolean }>(GET, []);
    if (!row) throw new Error('No system_settings row: its migration seeds it');
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
