import type { RoleName } from '../../core/accounts/role';
import type { AccountStatus, User } from '../../core/accounts/user';
import type { NewUser, UserRepository } from '../../core/accounts/user-repository.port';
import { DomainError } from '../../core/shared/domain-error';
import type { Database } from './database';

interface UserRow {
  id: number;
  organization_id: number;
  email: string;
  password_hash: string | null;
  first_name: string | null;
  last_name: string | null;
  role: RoleName;
  email_verified_at: string | Date | null;
  status: AccountStatus;
  created_at: string | Date;
}

const COLUMNS = [
  'id',
  'organization_id',
  'email',
  'password_hash',
  'first_name',
  'last_name',
  'role',
  'email_verified_at',
  'status',
  'created_at',
];

const toUser = (row: UserRow): User => ({
  id: row.id,
  organizationId: row.organization_id,
  email: row.email,
  passwordHash: row.password_hash,
  firstName: row.first_name,
  lastName: row.last_name,
  role: row.role,
  emailVerified: row.email_verified_at !== null,
  status: row.status,
  createdAt: new Date(row.created_at),
});

export class PostgresUserRepository implements UserRepository {
  constructor(private readonly database: Database) {}

  async create(user: NewUser): Promise<User> {
    const db = this.database.db;
    // ON CONFLICT instead of catching SQLSTATE 23505: a unique violation would abort the caller's
    // transaction, while a taken email is an expected failure the caller may handle and go on.
    const [row] = (await db('app_user')
      .insert({
        organization_id: user.organizationId,
        email: user.email,
        password_hash: user.passwordHash,
        first_name: user.firstName,
        last_name: user.lastName,
        role: user.role,
        email_verified_at: user.emailVerified ? db.fn.now() : null,
      })
      .onConflict('email')
      .ignore()
      .returning(COLUMNS)) as UserRow[];
    if (!row) throw new DomainError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists');
    return toUser(row);
  }

  async findById(id: number): Promise<User | null> {
    const row = (await this.database.db('app_user').select(COLUMNS).where({ id }).first()) as UserRow | undefined;
    return row ? toUser(row) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = (await this.database.db('app_user').select(COLUMNS).where({ email }).first()) as UserRow | undefined;
    return row ? toUser(row) : null;
  }

  async markEmailVerified(id: number): Promise<void> {
    const db = this.database.db;
    // Only the first verification is recorded, so repeating it changes nothing.
    await db('app_user').update({ email_verified_at: db.fn.now(), updated_at: db.fn.now() }).where({ id }).whereNull('email_verified_at');
  }

  async setPasswordHash(id: number, passwordHash: string | null): Promise<void> {
    const db = this.database.db;
    await db('app_user').update({ password_hash: passwordHash, updated_at: db.fn.now() }).where({ id });
  }

  async listByOrganization(organizationId: number): Promise<User[]> {
    const rows = (await this.database
      .db('app_user')
      .select(COLUMNS)
      .where({ organization_id: organizationId })
      .orderBy('id')) as UserRow[];
    return rows.map(toUser);
  }

  async updateRole(organizationId: number, userId: number, role: RoleName): Promise<User | null> {
    const db = this.database.db;
    const [row] = await db('app_user')
      .update({ role, updated_at: db.fn.now() })
      .where({ id: userId, organization_id: organizationId })
      .returning(COLUMNS);
    return row ? toUser(row as UserRow) : null;
  }

  async delete(organizationId: number, userId: number): Promise<boolean> {
    // Sessions and one-time tokens go with the user (ON DELETE CASCADE).
    const deleted = await this.database.db('app_user').where({ id: userId, organization_id: organizationId }).del();
    return deleted > 0;
  }

  async countByRole(organizationId: number, role: RoleName): Promise<number> {
    const row = (await this.database
      .db('app_user')
      .where({ organization_id: organizationId, role })
      .count({ count: '*' })
      .first()) as { count: string | number } | undefined;
    return Number(row?.count ?? 0);
  }
}
