import type { ListWindow } from '../shared/list-page';
import type { Invitation } from './invitation';

/** A pending invitation as created: `email` already normalized, `createdAt` from the Clock. */
export type NewInvitation = Omit<Invitation, 'id' | 'acceptedAt' | 'revokedAt'>;

/**
 * Invitations into an organization. "Pending at `now`" means neither accepted nor revoked and
 * `now < expiresAt` (see isPending). Only token hashes are stored; lookups are by hash.
 */
export interface InvitationRepository {
  /**
   * Inserts a pending invitation. Every invitation of the same email in the same organization
   * that is neither accepted nor revoked is revoked first (at `createdAt`): re-inviting replaces
   * the earlier link. A token hash that is already stored rejects (a bug, not a domain error).
   */
  create(input: NewInvitation): Promise<Invitation>;
  /** The invitation with this token hash if it is pending at `now`, else null. */
  findPendingByTokenHash(tokenHash: string, now: Date): Promise<Invitation | null>;
  /**
   * Atomically marks the invitation accepted at `now` and returns it, only if it is pending at
   * `now`; otherwise returns null and changes nothing. Concurrent consumers of one token:
   * exactly one gets the invitation.
   */
  consume(tokenHash: string, now: Date): Promise<Invitation | null>;
  /**
   * The organization's invitations that can be accepted at `now`: pending, and still vouched for
   * by their inviter (see inviterVouches: an invitation whose inviter was removed, suspended or
   * demoted below its role is left out). Oldest first, (createdAt, id) ascending; `window` pages it.
   */
  listAcceptable(organizationId: number, now: Date, window?: ListWindow): Promise<Invitation[]>;
  /**
   * Revokes the invitation if it belongs to the organization and is pending at `now`, and returns
   * it as revoked (what the audit log names); unknown, foreign, accepted, revoked and expired
   * invitations all give null and change nothing.
   */
  revoke(organizationId: number, id: number, now: Date): Promise<Invitation | null>;
  /**
   * The invitations for this (normalized) email pending at `now`, in every organization, newest
   * first: at most one per organization, since inviting again replaces the pending one.
   */
  listPendingByEmail(email: string, now: Date): Promise<Invitation[]>;
}
