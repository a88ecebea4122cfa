import type { OrganizationsDeps } from './organizations-deps';
import type { Caller } from '../access/caller';
import { resourceNotFound } from '../shared/domain-error';
import { requireRole } from '../access/require-role';
import { eventBy } from '../audit/audit-actor';

/**
 * Revokes a pending invitation of the caller's organization; its link stops working. Anything
 * else (unknown, another organization's, already accepted, revoked or expired) is RESOURCE_NOT_FOUND.
 * The revocation and its `invitation.revoked` event commit together.
 */
export class RevokeInvitation {
  constructor(private readonly deps: Pick<OrganizationsDeps, 'invitations' | 'clock' | 'unitOfWork' | 'audit'>) {}

  async execute(caller: Caller, input: { invitationId: number }): Promise<void> {
    requireRole(caller, 'org_admin');
    await this.deps.unitOfWork.transaction(async () => {
      const revoked = await this.deps.invitations.revoke(caller.organizationId, input.invitationId, this.deps.clock.now());
      if (!revoked) throw resourceNotFound('invitation', input.invitationId);
      const target = { type: 'invitation', id: String(revoked.id) };
      await this.deps.audit.record(eventBy(caller, 'invitation.revoked', target, { email: revoked.email, role: revoked.role }));
    });
  }
}
