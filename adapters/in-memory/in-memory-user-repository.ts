import type { RoleName } from '../../core/access/role';
import type { AccountStatus, User } from '../../core/accounts/user';
import type { NameChange, NewUser, UserRepository } from '../../core/accounts/user-repository.port';
import { DomainError } from '../../core/shared/domain-error';
import { applyWindow, byPosition, type ListWindow } from '../../core/shared/list-page';
import type { InMemoryStore, UserRow } from './in-memory-store';

const toUser = (row: UserRow): User => ({
  id: row.id,
  organizationId: row.organizationId,
  email: row.email,
  passwordHash: row.passwordHash,
  firstName: row.firstName,
  lastName: row.lastName,
  role: row.role,
  emailVerified: row.emailVerifiedAt !== null,
  status: row.status,
  credentialsVersion: row.credentialsVersion,
  createdAt: new Date(row.createdAt),
});

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
        organizationId: user.organizationId,
        email: user.email,
        passwordHash: user.passwordHash,
        firstName: user.firstName,
        lastName: user.lastName,
        role: user.role,
        emailVerifiedAt: user.emailVerified ? now : null,
        status: 'active',
        credentialsVersion: 0,
        createdAt: now,
        updatedAt: now,
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
      if (change.firstName !== undefined) row.firstName = change.firstName;
      if (change.lastName !== undefined) row.lastName = change.lastName;
      row.updatedAt = this.store.now();
      return toUser(row);
    });
  }

  markEmailVerified(id: number): Promise<void> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(id);
      if (!row || row.emailVerifiedAt !== null) return;
      row.emailVerifiedAt = this.store.now();
      row.updatedAt = row.emailVerifiedAt;
    });
  }

  setPasswordHash(id: number, passwordHash: string | null, expectedCredentialsVersion?: number): Promise<number | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(id);
      if (!row) return null;
      if (expectedCredentialsVersion !== undefined && row.credentialsVersion !== expectedCredentialsVersion) return null;
      row.passwordHash = passwordHash;
      row.credentialsVersion += 1;
      row.updatedAt = this.store.now();
      return row.credentialsVersion;
    });
  }

  replacePasswordHash(id: number, previousHash: string, passwordHash: string): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(id);
      if (!row || row.passwordHash !== previousHash) return false;
      row.passwordHash = passwordHash;
      row.updatedAt = this.store.now();
      return true;
    });
  }

  setStatus(organizationId: number, userId: number, status: AccountStatus): Promise<User | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(userId);
      if (!row || row.organizationId !== organizationId) return null;
      if (row.status !== status) {
        row.status = status;
        row.updatedAt = this.store.now();
      }
      return toUser(row);
    });
  }

  listByOrganization(organizationId: number, window?: ListWindow): Promise<User[]> {
    return this.store.unitOfWork.exclusive(() => applyWindow(this.inOrganization(organizationId), window).map(toUser));
  }

  updateRole(organizationId: number, userId: number, role: RoleName): Promise<User | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(userId);
      if (!row || row.organizationId !== organizationId) return null;
      row.role = role;
      row.updatedAt = this.store.now();
      return toUser(row);
    });
  }

  delete(organizationId: number, userId: number): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.users.get(userId);
      if (!row || row.organizationId !== organizationId) return false;
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
    return [...this.store.users.values()].filter((row) => row.organizationId === organizationId).sort(byPosition);
  }
}
