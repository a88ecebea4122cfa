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
    const [row] = await this.database.db('organization').insert({ name: input.name }).returning(COLUMNS);
    return toOrganization(row as OrganizationRow);
  }

  async findById(id: number): Promise<Organization | null> {
    const row = (await this.database.db('organization').select(COLUMNS).where({ id }).first()) as OrganizationRow | undefined;
    return row ? toOrganization(row) : null;
  }

  async list(): Promise<Organization[]> {
    // `id` breaks ties between organizations created in the same microsecond.
    const rows = (await this.database.db('organization').select(COLUMNS).orderBy(['created_at', 'id'])) as OrganizationRow[];
    return rows.map(toOrganization);
  }

  async lock(id: number): Promise<void> {
    // A row lock held until the surrounding transaction ends (outside one it is released at once).
    await this.database.db('organization').select('id').where({ id }).forUpdate();
  }

  async setStatus(id: number, status: AccountStatus): Promise<Organization | null> {
    const [row] = await this.database
      .db('organization')
      .update({ status, updated_at: this.database.db.fn.now() })
      .where({ id })
      .returning(COLUMNS);
    return row ? toOrganization(row as OrganizationRow) : null;
  }
}
