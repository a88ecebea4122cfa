import type { RoleName } from '../../core/access/role';
import type { AccountStatus, User } from '../../core/accounts/user';
import type { NameChange, NewUser, UserRepository } from '../../core/accounts/user-repository.port';
import { DomainError } from '../../core/shared/domain-error';
import { applyWindow, byPosition, type ListWindow } from '../../core/shared/list-page';
import { toUser } from '../postgres/account-rows';
import type { InMemoryStore, UserRow } from './in-memory-store';

export class InMemoryUserRepository implements UserRepository {
  constructor(private readonly store: InMemoryStore) {}

  create(user: NewUser): Promise<User> {
    return this.store.unitOfWork.exclusive(() => {
      if (this.byEmail(user.email)) {
        throw new DomainError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists');
      }
      // What the foreign key does in SQL: a bug, not an expected failure.
      if (!this.store.organizations.has(user.organizationId)) {
        throw new Error(`Organization ${user.organizationId} does not exist`);
      }
      const now = this.store.now();
      const row: UserRow = {
        id: this.store.nextId('app_user'),
        organization_id: user.organizationId,
        email: user.email,
        password_hash: user.passwordHash,
        first_name: user.firstName,
        last_name: user.lastName,
        role: user.role,
        email_verified_at: user.emailVerified ? now : null,
        status: 'active',
        credentials_version: 0,
        created_at: now,
        updated_at: now,
      };
      this.store.users.set(row.id, row);
      return toUser(row);
    });
  }

  findById(id: number): Promise<User | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(id);
      return row ? toUser(row) : null;
    });
  }

  findByEmail(email: string): Promise<User | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.byEmail(email);
      return row ? toUser(row) : null;
    });
  }

  updateName(id: number, change: NameChange): Promise<User | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(id);
      if (!row) return null;
      if (change.firstName !== undefined) row.first_name = change.firstName;
      if (change.lastName !== undefined) row.last_name = change.lastName;
      row.updated_at = this.store.now();
      return toUser(row);
    });
  }

  markEmailVerified(id: number): Promise<void> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(id);
      if (!row || row.email_verified_at !== null) return;
      row.email_verified_at = this.store.now();
      row.updated_at = row.email_verified_at;
    });
  }

  setPasswordHash(id: number, passwordHash: string | null, expectedCredentialsVersion?: number): Promise<number | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(id);
      if (!row) return null;
      if (expectedCredentialsVersion !== undefined && row.credentials_version !== expectedCredentialsVersion) return null;
      row.password_hash = passwordHash;
      row.credentials_version += 1;
      row.updated_at = this.store.now();
      return row.credentials_version;
    });
  }

  replacePasswordHash(id: number, previousHash: string, passwordHash: string): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(id);
      if (!row || row.password_hash !== previousHash) return false;
      row.password_hash = passwordHash;
      row.updated_at = this.store.now();
      return true;
    });
  }

  setStatus(organizationId: number, userId: number, status: AccountStatus): Promise<User | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(userId);
      if (!row || row.organization_id !== organizationId) return null;
      if (row.status !== status) {
        row.status = status;
        row.updated_at = this.store.now();
      }
      return toUser(row);
    });
  }

  listByOrganization(organizationId: number, window?: ListWindow): Promise<User[]> {
    return this.store.unitOfWork.exclusive(() => applyWindow(this.inOrganization(organizationId).map(toUser).sort(byPosition), window));
  }

  updateRole(organizationId: number, userId: number, role: RoleName): Promise<User | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(userId);
      if (!row || row.organization_id !== organizationId) return null;
      row.role = role;
      row.updated_at = this.store.now();
      return toUser(row);
    });
  }

  delete(organizationId: number, userId: number): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(userId);
      if (!row || row.organization_id !== organizationId) return false;
      return this.store.deleteUser(userId);
    });
  }

  countByRole(organizationId: number, role: RoleName): Promise<number> {
    return this.store.unitOfWork.exclusive(
      () => this.inOrganization(organizationId).filter((row) => row.role === role && row.status === 'active').length,
    );
  }

  countSysAdmins(): Promise<number> {
    return this.store.unitOfWork.exclusive(() => [...this.store.users.values()].filter((row) => row.role === 'sys_admin').length);
  }

  private byEmail(email: string): UserRow | undefined {
    for (const row of this.store.users.values()) if (row.email === email) return row;
    return undefined;
  }

  private inOrganization(organizationId: number): UserRow[] {
    return [...this.store.users.values()].filter((row) => row.organization_id === organizationId);
  }
}
