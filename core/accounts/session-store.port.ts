import type { ListWindow } from '../shared/list-page';
import type { RoleName } from '../access/role';
import type { AccountStatus } from './user';

/** What authentication needs to know about a session, read in one lookup. */
export interface SessionPrincipal {
  sessionId: number;
  userId: number;
  organizationId: number;
  role: RoleName;
  expiresAt: Date;
  /** When the session was last seen in use; written at most once per activity interval. */
  lastSeenAt: Date;
  userStatus: AccountStatus;
  organizationStatus: AccountStatus;
  /** The organization's `require_mfa` setting. */
  organizationRequiresMfa: boolean;
  /** Whether the user has confirmed a second factor. */
  userHasMfa: boolean;
  /** The user's credentials version the session was created under (or renewed to). */
  credentialsVersion: number;
  /** The user's credentials version now. */
  userCredentialsVersion: number;
  /** Made by a passkey sign-in with user verification: both factors at once. */
  viaPasskey: boolean;
}

/** Where a session was opened from, as the HTTP edge saw it. Both optional: a CLI has neither. */
export interface SessionOrigin {
  /** At most 255 characters (longer values are cut by the caller). */
  userAgent: string | null;
  ip: string | null;
}

/** A session as its owner sees it in their list. */
export interface SessionSummary extends SessionOrigin {
  id: number;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

export interface NewSession extends Partial<SessionOrigin> {
  userId: number;
  tokenHash: string;
  createdAt: Date;
  expiresAt: Date;
  /** The user's credentials version the caller read; see SessionStore.create. */
  credentialsVersion: number;
  /** Made by a passkey sign-in (default false). */
  viaPasskey?: boolean;
}

/**
 * Server-side sessions. Only the SHA-256 of the token is stored (`tokenHash`, 64 hex chars);
 * the token itself never reaches this port. A session is valid while `now < expiresAt`.
 */
export interface SessionStore {
  /**
   * `lastSeenAt` starts at `createdAt`. Creates the session only if the user still exists and is
   * still at `credentialsVersion`, checked in the same statement as the insert, so a password
   * change or a removal that committed meanwhile wins. Returns null (and creates nothing) otherwise.
   */
  create(input: NewSession): Promise<{ id: number } | null>;
  /** The session with that token hash and its user's and organization's state, or null. Expired sessions are returned too: the caller compares `expiresAt`. */
  findByTokenHash(tokenHash: string): Promise<SessionPrincipal | null>;
  /**
   * The user's sessions with `now < expiresAt`, newest first (by `createdAt`, then id): at most
   * `window.limit` (all when omitted), strictly after `window.after` in that order.
   */
  listLiveForUser(userId: number, now: Date, window?: ListWindow): Promise<SessionSummary[]>;
  /**
   * Sets `lastSeenAt = at` only when the stored value is before `staleBefore`, so instances that
   * see the same session at once write it once. Returns whether it wrote. Idempotent.
   */
  recordActivity(sessionId: number, at: Date, staleBefore: Date): Promise<boolean>;
  /** Idempotent. */
  revoke(sessionId: number): Promise<void>;
  /** Revokes the session only if it belongs to `userId`; returns whether one was revoked. */
  revokeOwned(userId: number, sessionId: number): Promise<boolean>;
  /** Moves the session to `credentialsVersion` (the session that changed the password stays alive). Idempotent. */
  renewCredentials(sessionId: number, credentialsVersion: number): Promise<void>;
  /** Revokes every session of the user except `exceptSessionId`; returns how many. */
  revokeAllForUser(userId: number, exceptSessionId?: number): Promise<number>;
  /**
   * Deletes up to `batchSize` sessions whose `expiresAt` is before `cutoff`; returns how many.
   * Call repeatedly until it returns less than `batchSize`.
   */
  pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number>;
}
