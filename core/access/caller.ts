import type { RoleName } from './role';

/**
 * Where a request came from, as the HTTP edge saw it: the client address (after the trusted
 * proxies) and the User-Agent (its first 255 characters). Null when unknown.
 */
export interface RequestOrigin {
  readonly ip: string | null;
  readonly userAgent: string | null;
}

/** What every caller has: the organization it acts in, with which role. */
interface CallerBase {
  organizationId: number;
  role: RoleName;
  /**
   * False only when the caller's organization requires a second factor and the caller has not
   * set one up (nor signed in with a passkey): such a caller may reach their account, sessions and MFA setup, nothing else.
   * Always true for an API key: the requirement is about how members sign in, and a key signs in no one.
   */
  mfaSatisfied: boolean;
  /**
   * Where the request came from; set by the HTTP edge for every authenticated request. Absent
   * when no request is involved (the CLI, a job): audit events then record no origin.
   */
  origin?: RequestOrigin;
}

/** A member signed in with a session. */
export interface UserCaller extends CallerBase {
  kind: 'user';
  userId: number;
  sessionId: number;
}

/**
 * An organization API key: it acts for the organization with the key's role, and is nobody's
 * user (a key outlives the member who made it), so it has no account, sessions or notes.
 */
export interface ApiKeyCaller extends CallerBase {
  kind: 'api_key';
  apiKeyId: number;
}

/** Who is making an authenticated request: a member's session or an organization API key. */
export type Caller = UserCaller | ApiKeyCaller;

/** Something that can act on behalf of the caller and be named later (logs, idempotency keys): `user:7`, `api_key:3`. */
export function callerRef(caller: Caller): string {
  return caller.kind === 'user' ? `user:${caller.userId}` : `api_key:${caller.apiKeyId}`;
}

/** The caller's user id, or null for an API key (which is nobody's user). */
export const callerUserId = (caller: Caller): number | null => (caller.kind === 'user' ? caller.userId : null);
