import type { RoleName } from '../../core/access/role';
import type { AccountStatus, User } from '../../core/accounts/user';
import type { NameChange, NewUser, UserRepository } from '../../core/accounts/user-repository.port';
import { DomainError } from '../../core/shared/domain-error';
import type { ListWindow } from '../../core/shared/list-page';
import { toUser } from './account-rows';
import type { Database } from './database';
import { windowed } from './list-window';

export class PostgresUserRepository implements UserRepository {
  constructor(private readonly database: Database) {}

  async create(user: NewUser): Promise<User> {
    const now = this.database.now();
    // ON CONFLICT instead of catching SQLSTATE 23505: a unique violation would abort the caller's
    // transaction, while a taken email is an expected failure the caller may handle and go on.
    const row = await this.database.db
      .insertInto('app_user')
      .values({
        organization_id: user.organizationId,
        email: user.email,
        password_hash: user.passwordHash,
        first_name: user.firstName,
        last_name: user.lastName,
        role: user.role,
        email_verified_at: user.emailVerified ? now : null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column('email').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new DomainError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists');
    return toUser(row);
  }

  async findById(id: number): Promise<User | null> {
    const row = await this.database.db.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async findByEmail(email: string): Promise<User | null> {
    const row = await this.database.db.selectFrom('app_user').selectAll().where('email', '=', email).executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async updateName(id: number, change: NameChange): Promise<User | null> {
    const row = await this.database.db
      .updateTable('app_user')
      .set({
        ...(change.firstName !== undefined ? { first_name: change.firstName } : {}),
        ...(change.lastName !== undefined ? { last_name: change.lastName } : {}),
        updated_at: this.database.now(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async markEmailVerified(id: number): Promise<void> {
    const now = this.database.now();
    // Only the first verification is recorded, so repeating it changes nothing.
    await this.database.db
      .updateTable('app_user')
      .set({ email_verified_at: now, updated_at: now })
      .where('id', '=', id)
      .where('email_verified_at', 'is', null)
      .execute();
  }

  async setPasswordHash(id: number, passwordHash: string | null, expectedCredentialsVersion?: number): Promise<number | null> {
    let query = this.database.db
      .updateTable('app_user')
      .set((eb) => ({ password_hash: passwordHash, credentials_version: eb('credentials_version', '+', 1), updated_at: this.database.now() }))
      .where('id', '=', id);
    // One statement: a concurrent change either commits first (and this one matches nothing) or waits for it.
    if (expectedCredentialsVersion !== undefined) query = query.where('credentials_version', '=', expectedCredentialsVersion);
    const row = await query.returning('credentials_version').executeTakeFirst();
    return row ? row.credentials_version : null;
  }

  async replacePasswordHash(id: number, previousHash: string, passwordHash: string): Promise<boolean> {
    const result = await this.database.db
      .updateTable('app_user')
      .set({ password_hash: passwordHash, updated_at: this.database.now() })
      .where('id', '=', id)
      .where('password_hash', '=', previousHash)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async setStatus(organizationId: number, userId: number, status: AccountStatus): Promise<User | null> {
    const row = await this.database.db
      .updateTable('app_user')
      .set({ status, updated_at: this.database.now() })
      .where('id', '=', userId)
      .where('organization_id', '=', organizationId)
      .returningAll()
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async listByOrganization(organizationId: number, window?: ListWindow): Promise<User[]> {
    const query = this.database.db
      .selectFrom('app_user')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id');
    const rows = await windowed(query, window).execute();
    return rows.map(toUser);
  }

  async updateRole(organizationId: number, userId: number, role: RoleName): Promise<User | null> {
    const row = await this.database.db
      .updateTable('app_user')
      .set({ role, updated_at: this.database.now() })
      .where('id', '=', userId)
      .where('organization_id', '=', organizationId)
      .returningAll()
      .executeTakeFirst();
    return row ? toUser(row) : null;
  }

  async delete(organizationId: number, userId: number): Promise<boolean> {
    // Sessions and one-time tokens go with the user (ON DELETE CASCADE).
    const result = await this.database.db
      .deleteFrom('app_user')
      .where('id', '=', userId)
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async countByRole(organizationId: number, role: RoleName): Promise<number> {
    const row = await this.database.db
      .selectFrom('app_user')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('organization_id', '=', organizationId)
      .where('role', '=', role)
      .where('status', '=', 'active')
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }

  async countSysAdmins(): Promise<number> {
    // FOR UPDATE, not count(*): the rows stay locked for the caller's transaction, and a waiter
    // re-reads a row changed meanwhile, so the last two sys_admins cannot both step down.
    const rows = await this.database.db.selectFrom('app_user').select('id').where('role', '=', 'sys_admin').forUpdate().execute();
    return rows.length;
  }
}
