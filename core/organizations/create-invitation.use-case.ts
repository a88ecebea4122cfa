import type { Caller } from '../accounts/caller';
import type { RoleName } from '../accounts/role';
import { normalizeEmail } from '../accounts/user';
import { resourceNotFound } from '../shared/domain-error';
import type { Invitation } from './invitation';
import { issueInvitation } from './issue-invitation';
import { assertMayGrant, requireRole } from './membership-rules';
import type { InvitationSettings, OrganizationsPorts } from './organizations-ports';

/**
 * Invites an email into the caller's organization with a role no higher than the caller's own.
 * An address that already has an account gets EMAIL_ALREADY_EXISTS (a user belongs to one
 * organization). Inviting the same address again replaces the pending invitation.
 */
export class CreateInvitation {
  constructor(
    private readonly ports: Pick<
      OrganizationsPorts,
      'organizations' | 'users' | 'invitations' | 'tokenGenerator' | 'tokenHasher' | 'clock' | 'outbox' | 'unitOfWork'
    >,
    private readonly settings: InvitationSettings,
  ) {}

  async execute(caller: Caller, input: { email: string; role: RoleName }): Promise<Invitation> {
    requireRole(caller, 'org_admin');
    assertMayGrant(caller.role, input.role);
    return this.ports.unitOfWork.transaction(async () => {
      const organization = await this.ports.organizations.findById(caller.organizationId);
      if (!organization) throw resourceNotFound('organization', caller.organizationId);
      return issueInvitation(this.ports, this.settings, {
        organization,
        email: normalizeEmail(input.email),
        role: input.role,
        invitedByUserId: caller.userId,
      });
    });
  }
}
