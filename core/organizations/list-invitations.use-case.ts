import type { Caller } from '../accounts/caller';
import type { Clock } from '../shared/clock.port';
import type { Invitation } from './invitation';
import type { InvitationRepository } from './invitation-repository.port';
import { requireRole } from './membership-rules';

/** The caller's organization's pending invitations (not accepted, not revoked, not expired), oldest first. */
export class ListInvitations {
  constructor(private readonly deps: { invitations: InvitationRepository; clock: Clock }) {}

  async execute(caller: Caller): Promise<Invitation[]> {
    requireRole(caller, 'org_admin');
    return this.deps.invitations.listPending(caller.organizationId, this.deps.clock.now());
  }
}
