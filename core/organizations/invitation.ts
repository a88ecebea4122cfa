import type { RoleName } from '../access/role';

/** An invitation link works for 7 days, once. */
export const INVITATION_TTL_SECONDS = 7 * 24 * 3600;

export interface Invitation {
  id: number;
  organizationId: number;
  /** Trimmed and lower-cased. */
  email: string;
  role: RoleName;
  /** SHA-256 of the emailed token; the token itself is never stored. Never sent to clients. */
  tokenHash: string;
  /** Null once the inviting user has been removed. */
  invitedByUserId: number | null;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

/** Pending: neither accepted nor revoked, and `now < expiresAt`. Only a pending invitation can be accepted. */
export const isPending = (invitation: Invitation, now: Date): boolean =>
  invitation.acceptedAt === null && invitation.revokedAt === null && now.getTime() < invitation.expiresAt.getTime();
