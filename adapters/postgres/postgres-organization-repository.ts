import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { AccountStatus, Organization, OrganizationSettings } from '../../core/accounts/user';
import type { Selectable } from 'kysely';
import type { ListWindow } from '../../core/shared/list-page';
import { toOrganization } from './account-rows';
import type { Database, PreparedSql } from './database';
import { windowed } from './list-window';
import type { Tables } from './schema/tables';

type OrganizationRow = Selectable<Tables['organization']>;

// Prepared: the copilot reads the overage switch on every call, before its first byte.
const FIND_SETTINGS: PreparedSql = { name: 'organization_find_settings', text: 'select overage_enabled, require_mfa from organization where id = $1' };

export class PostgresOrganizationRepository implements OrganizationRepository {
  constructor(private readonly database: Database) {}

  async create(input: { name: string }): Promise<Organization> {
    const now = this.database.now();
    const row = await this.database.db
      .insertInto('organization')
      .values({ name: input.name, status: 'active', overage_enabled: false, require_mfa: false, created_at: now, updated_at: now })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toOrganization(row);
  }

  async findById(id: number): Promise<Organization | null> {
    const row = await this.database.db.selectFrom('organization').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toOrganization(row) : null;
  }

  async list(window?: ListWindow): Promise<Organization[]> {
    // `id` breaks ties between organizations created in the same microsecond.
    const query = this.database.db.selectFrom('organization').selectAll().orderBy('created_at').orderBy('id');
    const rows = await windowed(query, window).execute();
    return rows.map(toOrganization);
  }

  async lock(id: number): Promise<void> {
    // A row lock held until the surrounding transaction ends (outside one it is released at once).
    await this.database.db.selectFrom('organization').select('id').where('id', '=', id).forUpdate().execute();
  }

  async setStatus(id: number, status: AccountStatus): Promise<Organization | null> {
    const row = await this.database.db
      .updateTable('organization')
      .set({ status, updated_at: this.database.now() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toOrganization(row) : null;
  }

  async findSettings(id: number): Promise<OrganizationSettings | null> {
    const [row] = await this.database.select<SettingsRow>(FIND_SETTINGS, [id]);
    return row ? toSettings(row) : null;
  }

  async updateSettings(id: number, changes: Partial<OrganizationSettings>): Promise<OrganizationSettings | null> {
    const row = await this.database.db
      .updateTable('organization')
      .set({
        updated_at: this.database.now(),
        ...(changes.overageEnabled === undefined ? {} : { overage_enabled: changes.overageEnabled }),
        ...(changes.requireMfa === undefined ? {} : { require_mfa: changes.requireMfa }),
      })
      .where('id', '=', id)
      .returning(['overage_enabled', 'require_mfa'])
      .executeTakeFirst();
    return row ? toSettings(row) : null;
  }
}

type SettingsRow = Pick<OrganizationRow, 'overage_enabled' | 'require_mfa'>;
const toSettings = (row: SettingsRow): OrganizationSettings => ({ overageEnabled: row.overage_enabled, requireMfa: row.require_mfa });
