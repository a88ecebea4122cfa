import type { OrganizationsPorts } from '../organizations/organizations-ports';
import { redeemInvitation } from '../organizations/redeem-invitation';
import type { PendingInvitations } from './idp-login';

/**
 * PendingInvitations over the organizations context: the newest invitation pending for the
 * email, redeemed as the emailed link would be, without a password. The provider's verified
 * email stands in for the link's proof of address.
 */
export class IdpPendingInvitations implements PendingInvitations {
  constructor(private readonly ports: Pick<OrganizationsPorts, 'invitations' | 'users' | 'organizations' | 'clock' | 'unitOfWork'>) {}

  async acceptFor(email: string, profile: { firstName: string | null; lastName: string | null }): Promise<{ userId: number } | null> {
    const invitation = await this.ports.invitations.findPendingByEmail(email, this.ports.clock.now());
    if (!invitation) return null;
    const { userId } = await redeemInvitation(this.ports, { tokenHash: invitation.tokenHash, passwordHash: null, ...profile });
    return { userId };
  }
}
