import type { OrganizationsDeps } from './organizations-deps';
import type { Caller } from '../access/caller';
import { resourceNotFound } from '../shared/domain-error';
import { requireRole } from '../access/require-role';

/**
 * Revokes a pending invitation of the caller's organization; its link stops working. Anything
 * else (unknown, another organization's, already accepted, revoked or expired) is RESOURCE_NOT_FOUND.
 */
export class RevokeInvitation {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'invitations' | 'clock'>) {}

  async execute(caller: Caller, input: { invitationId: number }): Promise<void> {
    requireRole(caller, 'org_admin');
    const revoked = await this.deps.invitations.revoke(caller.organizationId, input.invitationId, this.deps.clock.now());
    if (!revoked) throw resourceNotFound('invitation', input.invitationId);
  }
}
