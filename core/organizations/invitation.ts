import type { RoleName } from '../access/role';
import type { User } from '../accounts/user';
import type { ApiKey } from '../api-keys/api-key';
import { mayGrant } from './membership-rules';

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
  /**
   * Who issued it: a member (`invitedByUserId`) or an organization API key (`invitedByApiKeyId`),
   * never both. The one that was set becomes null once that user is removed or that key revoked.
   */
  invitedByUserId: number | null;
  invitedByApiKeyId: number | null;
  expiresAt: Date;
  acceptedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

/** Pending: neither accepted nor revoked, and `now < expiresAt`. Only a pending invitation can be accepted. */
export const isPending = (invitation: Invitation, now: Date): boolean =>
  invitation.acceptedAt === null && invitation.revokedAt === null && now.getTime() < invitation.expiresAt.getTime();

/** What an invitation needs to know of the user who sent it. */
export type Inviter = Pick<User, 'organizationId' | 'role' | 'status'>;

/**
 * An invitation carries its inviter's authority, so it is good only while that authority holds:
 * the inviter still exists (`null`: removed), is active, and may still grant the invited role in
 * that organization; or is a sys_admin (who invites the first org_admin of an organization they
 * create). Accepting checks it, and the list of pending invitations shows only those that pass,
 * so what an admin sees listed is what can be accepted. The SQL adapter restates this rule in
 * its query; the invitation contract suite holds the two together.
 */
export const inviterVouches = (invitation: Pick<Invitation, 'organizationId' | 'role'>, inviter: Inviter | null): boolean => {
  if (!inviter || inviter.status !== 'active') return false;
  if (inviter.role === 'sys_admin') return true;
  return inviter.organizationId === invitation.organizationId && mayGrant(inviter.role, invitation.role);
};

/** What an invitation needs to know of the API key that sent it. */
export type InvitingKey = Pick<ApiKey, 'organizationId' | 'role' | 'expiresAt'>;

/**
 * The same rule for an invitation an API key issued: the key carries the authority, so the
 * invitation is good only while the key is live (not revoked: `null`; not expired at `now`),
 * belongs to the invitation's organization, and its role may grant the invited role. A key's role
 * never changes, so revoking or expiring the key is what voids its pending invitations.
 */
export const invitingKeyVouches = (invitation: Pick<Invitation, 'organizationId' | 'role'>, key: InvitingKey | null, now: Date): boolean => {
  if (!key || (key.expiresAt !== null && key.expiresAt.getTime() <= now.getTime())) return false;
  return key.organizationId === invitation.organizationId && mayGrant(key.role, invitation.role);
};
