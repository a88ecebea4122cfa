import type { RoleName } from './role';

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
}
