import type { UserCaller } from '../access/caller';
import { normalizeEmail, type Organization } from '../accounts/user';
import type { Invitation } from './invitation';
import { issueInvitation } from './issue-invitation';
import { requireRole } from '../access/require-role';
import type { OrganizationsDeps } from './organizations-deps';

export interface CreateOrganizationInput {
  /** Already trimmed, 1..200 characters. */
  name: string;
  adminEmail: string;
}

/**
 * A sys_admin creates an organization and invites its first `org_admin`. The organization, the
 * invitation, its email and its `invitation.created` event (in the new organization's audit log)
 * commit together: an address that already has an account
 * (EMAIL_ALREADY_EXISTS) leaves no organization behind.
 */
export class CreateOrganization {
  constructor(
    private readonly deps: Pick<
      OrganizationsDeps,
      'organizations' | 'users' | 'invitations' | 'tokenGenerator' | 'tokenHasher' | 'clock' | 'outbox' | 'unitOfWork' | 'settings' | 'audit'
    >,
  ) {}

  async execute(caller: UserCaller, input: CreateOrganizationInput): Promise<{ organization: Organization; invitation: Invitation }> {
    requireRole(caller, 'sys_admin');
    return this.deps.unitOfWork.transaction(async () => {
      const organization = await this.deps.organizations.create({ name: input.name });
      const invitation = await issueInvitation(this.deps, this.deps.settings, {
        organization,
        email: normalizeEmail(input.adminEmail),
        role: 'org_admin',
        invitedBy: caller,
      });
      return { organization, invitation };
    });
  }
}
