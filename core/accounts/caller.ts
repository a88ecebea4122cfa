import type { RoleName } from './role';

/** Who is making an authenticated request, as established from their session. */
export interface Caller {
  userId: number;
  organizationId: number;
  role: RoleName;
  sessionId: number;
}
