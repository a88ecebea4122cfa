import type { OrganizationsPorts } from './organizations-deps';
import { redeemInvitation } from './redeem-invitation';
import { DomainError } from '../shared/domain-error';
import { IdpLoginFailure, type PendingInvitations } from '../accounts/idp-login';
import type { AuditOrigin } from '../audit/audit-event';

/**
 * PendingInvitations over the organizations context: the invitation the user picked, redeemed as
 * the emailed link would be, without a password. The provider's verified email stands in for the
 * link's proof of address; the carried token hash (or there being only one invitation) stands in
 * for the user's choice of organization.
 */
export class IdpPendingInvitations implements PendingInvitations {
  constructor(private readonly ports: Pick<OrganizationsPorts, 'invitations' | 'users' | 'apiKeys' | 'organizations' | 'clock' | 'unitOfWork' | 'audit'>) {}

  async acceptFor(
    email: string,
    profile: { firstName: string | null; lastName: string | null },
    invitationTokenHash: string | null,
    origin: AuditOrigin,
  ): Promise<{ userId: number } | null> {
    const tokenHash = await this.pick(email, invitationTokenHash);
    if (tokenHash === null) return null;
    try {
      const { userId } = await redeemInvitation(this.ports, { tokenHash, passwordHash: null, ...profile, via: 'identity_provider', origin });
      return { userId };
    } catch (error) {
      // The inviter lost the right to invite (no way in), or the organization is suspended (as
      // for any of its members' sign-ins).
      if (error instanceof DomainError && error.code === 'INVALID_TOKEN') {
        throw new IdpLoginFailure('oauth_signup_closed', `the invitation cannot be accepted: ${error.message}`);
      }
      if (error instanceof DomainError && error.code === 'ACCOUNT_SUSPENDED') throw new IdpLoginFailure('oauth_failed', error.message);
      throw error;
    }
  }

  private async pick(email: string, invitationTokenHash: string | null): Promise<string | null> {
    const now = this.ports.clock.now();
    if (invitationTokenHash !== null) {
      const invitation = await this.ports.invitations.findPendingByTokenHash(invitationTokenHash, now);
      if (!invitation || invitation.email !== email) {
        throw new IdpLoginFailure('oauth_signup_closed', 'the invitation this sign-in started from is not pending for the verified email');
      }
      return invitation.tokenHash;
    }
    const pending = await this.ports.invitations.listPendingByEmail(email, now);
    if (pending.length > 1) {
      throw new IdpLoginFailure(
        'oauth_signup_closed',
        `${pending.length} organizations invite this email and the sign-in did not start from one of their links`,
      );
    }
    return pending[0]?.tokenHash ?? null;
  }
}
