import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { AccountStatus, Organization } from '../../core/accounts/user';
import type { Database } from './database';

interface OrganizationRow {
  id: number;
  name: string;
  status: AccountStatus;
  created_at: string | Date;
}

const COLUMNS = ['id', 'name', 'status', 'created_at'];

const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id,
  name: row.name,
  status: row.status,
  createdAt: new Date(row.created_at),
});

export class PostgresOrganizationRepository implements OrganizationRepository {
  constructor(private readonly database: Database) {}

  async create(input: { name: string }): Promise<Organization> {
    const now = this.database.now();
    const row = (await this.database.db
      .insertInto('organization')
      .values({ name: input.name, status: 'active', created_at: now, updated_at: now })
      .returning(COLUMNS)
      .executeTakeFirstOrThrow()) as OrganizationRow;
    return toOrganization(row);
  }

  async findById(id: number): Promise<Organization | null> {
    const row = (await this.database.db.selectFrom('organization').select(COLUMNS).where('id', '=', id).executeTakeFirst()) as
      | OrganizationRow
      | undefined;
    return row ? toOrganization(row) : null;
  }

  async list(): Promise<Organization[]> {
    // `id` breaks ties between organizations created in the same microsecond.
    const rows = (await this.database.db
      .selectFrom('organization')
      .select(COLUMNS)
      .orderBy('created_at')
      .orderBy('id')
      .execute()) as OrganizationRow[];
    return rows.map(toOrganization);
  }

  async lock(id: number): Promise<void> {
    // A row lock held until the surrounding transaction ends (outside one it is released at once).
    await this.database.db.selectFrom('organization').select('id').where('id', '=', id).forUpdate().execute();
  }

  async setStatus(id: number, status: AccountStatus): Promise<Organization | null> {
    const row = (await this.database.db
      .updateTable('organization')
      .set({ status, updated_at: this.database.now() })
      .where('id', '=', id)
      .returning(COLUMNS)
      .executeTakeFirst()) as OrganizationRow | undefined;
    return row ? toOrganization(row) : null;
  }
}
