import type { RoleName } from './role';
import type { AccountStatus } from './user';

/** What authentication needs to know about a session, read in one lookup. */
export interface SessionPrincipal {
  sessionId: number;
  userId: number;
  organizationId: number;
  role: RoleName;
  expiresAt: Date;
  userStatus: AccountStatus;
  organizationStatus: AccountStatus;
}

/**
 * Server-side sessions. Only the SHA-256 of the token is stored (`tokenHash`, 64 hex chars);
 * the token itself never reaches this port. A session is valid while `now < expiresAt`.
 */
export interface SessionStore {
  create(input: { userId: number; tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<{ id: number }>;
  /** The session with that token hash and its user's and organization's state, or null. Expired sessions are returned too: the caller compares `expiresAt`. */
  findByTokenHash(tokenHash: string): Promise<SessionPrincipal | null>;
  /** Idempotent. */
  revoke(sessionId: number): Promise<void>;
  /** Revokes every session of the user except `exceptSessionId`; returns how many. */
  revokeAllForUser(userId: number, exceptSessionId?: number): Promise<number>;
  /**
   * Deletes up to `batchSize` sessions whose `expiresAt` is before `cutoff`; returns how many.
   * Call repeatedly until it returns less than `batchSize`.
   */
  pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number>;
}
