import type { ListWindow } from '../shared/list-page';
import type { RoleName } from '../access/role';
import type { AccountStatus, User } from './user';

/** A user as created: the User's fields but those the store assigns (id, status, creation time). */
export type NewUser = Omit<User, 'id' | 'status' | 'createdAt' | 'credentialsVersion'>;

/** A change of name: a given key is set (`null` clears it), an absent one is left as it is. */
export interface NameChange {
  firstName?: string | null;
  lastName?: string | null;
}

/** Users, each belonging to exactly one organization. Emails are unique across the system. */
export interface UserRepository {
  /** Rejects with DomainError EMAIL_ALREADY_EXISTS when the (normalized) email is taken. */
  create(user: NewUser): Promise<User>;
  findById(id: number): Promise<User | null>;
  /** `email` must already be normalized. */
  findByEmail(email: string): Promise<User | null>;
  /** Applies the change as given (already validated); returns the updated user, or null when the user is gone. */
  updateName(id: number, change: NameChange): Promise<User | null>;
  /** Idempotent. */
  markEmailVerified(id: number): Promise<void>;
  /**
   * Sets the password hash (`null` removes the password: identity-provider-only account) and
   * increments `credentialsVersion`, atomically. With `expectedCredentialsVersion`, only if the
   * user is still at that version. Returns the new version, or null when the user is gone or
   * (with the expectation) the version moved on meanwhile; then nothing changed.
   */
  setPasswordHash(id: number, passwordHash: string | null, expectedCredentialsVersion?: number): Promise<number | null>;
  /**
   * Sets the hash only while the stored one is still `previousHash` (a rehash must not undo a
   * password change that happened meanwhile). Returns whether it did. The password is the same,
   * so the credentials version does not move.
   */
  replacePasswordHash(id: number, previousHash: string, passwordHash: string): Promise<boolean>;
  /** Scoped to the organization; returns the updated user, or null when absent there. Idempotent. */
  setStatus(organizationId: number, userId: number, status: AccountStatus): Promise<User | null>;
  /** In joining order, (createdAt, id) ascending; `window` pages it. */
  listByOrganization(organizationId: number, window?: ListWindow): Promise<User[]>;
  /** Scoped to the organization; returns the updated user, or null when absent there. */
  updateRole(organizationId: number, userId: number, role: RoleName): Promise<User | null>;
  /** Scoped to the organization; cascades to sessions, tokens and projects. Returns whether a row was deleted. */
  delete(organizationId: number, userId: number): Promise<boolean>;
  /** Active members with that role (suspended members administer nothing). */
  countByRole(organizationId: number, role: RoleName): Promise<number>;
  /**
   * Every sys_admin in the system, whatever their organization. Inside a transaction their rows
   * stay locked until it ends, so two sys_admins stepping down at once queue, and the second
   * counts after the first's change.
   */
  countSysAdmins(): Promise<number>;
}
