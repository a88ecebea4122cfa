import type { RoleName } from './role';

/**
 * Where a request came from, as the HTTP edge saw it: the client address (after the trusted
 * proxies) and the User-Agent (its first 255 characters). Null when unknown.
 */
export interface RequestOrigin {
  readonly ip: string | null;
  readonly userAgent: string | null;
}

/** Who is making an authenticated request, as established from their session. */
export interface Caller {
  userId: number;
  organizationId: number;
  role: RoleName;
  sessionId: number;
  /**
   * False only when the caller's organization requires a second factor and the caller has not
   * set one up (nor signed in with a passkey): such a caller may reach their account, sessions and MFA setup, nothing else.
   */
  mfaSatisfied: boolean;
  /**
   * Where the request came from; set by the HTTP edge for every authenticated request. Absent
   * when no request is involved (the CLI, a job): audit events then record no origin.
   */
  origin?: RequestOrigin;
}
