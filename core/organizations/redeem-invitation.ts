import type { RoleName } from '../access/role';
import { DomainError } from '../shared/domain-error';
import { invitingKeyVouches, inviterVouches, type Invitation } from './invitation';
import type { OrganizationsPorts } from './organizations-deps';
import type { AuditOrigin } from '../audit/audit-event';
import { userActor } from '../audit/audit-actor';

export interface RedeemInvitationInput {
  /** The hash of the token from the link (or of a pending invitation found another way). */
  tokenHash: string;
  /** Null for an account that signs in through the identity provider only. */
  passwordHash: string | null;
  firstName?: string | null;
  lastName?: string | null;
  /** How the new member proved the address: the emailed link, or the identity provider's word. */
  via: 'invitation_link' | 'identity_provider';
  /** The request that redeemed it, for the `member.joined` event. */
  origin: AuditOrigin;
}

export interface RedeemedInvitation {
  userId: number;
  organizationId: number;
  role: RoleName;
}

/**
 * Turns a pending invitation into a verified user with the invited role in the invited
 * organization (the emailed link proves the address), and records `member.joined` (the new member
 * as actor) with it. Independent of how the password is set, so the identity-provider flow calls
 * it with `passwordHash: null`. Joins the caller's transaction if there is one; a failure (email
 * taken meanwhile) leaves the invitation pending and records nothing.
 *
 * An invitation carries its inviter's authority, so that authority is checked again here, when
 * it is used (`inviterVouches`): an inviter who was removed, suspended or demoted below the
 * invited role since no longer vouches for it (INVALID_TOKEN); nor does an API key that was
 * revoked or has expired since (`invitingKeyVouches`). A suspended organization takes no new members
 * (ACCOUNT_SUSPENDED, as its logins get).
 */
export async function redeemInvitation(
  ports: Pick<OrganizationsPorts, 'invitations' | 'users' | 'apiKeys' | 'organizations' | 'clock' | 'unitOfWork' | 'audit'>,
  input: RedeemInvitationInput,
): Promise<RedeemedInvitation> {
  return ports.unitOfWork.transaction(async () => {
    const now = ports.clock.now();
    const invitation = await ports.invitations.consume(input.tokenHash, now);
    if (!invitation || !(await issuerStillVouches(ports, invitation, now))) {
      throw new DomainError('INVALID_TOKEN', 'This invitation is invalid or has expired');
    }
    const organization = await ports.organizations.findById(invitation.organizationId);
    if (organization?.status !== 'active') throw new DomainError('ACCOUNT_SUSPENDED', 'This organization is suspended');
    if (await ports.users.findByEmail(invitation.email)) {
      throw new DomainError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists');
    }
    const user = await ports.users.create({
      organizationId: invitation.organizationId,
      email: invitation.email,
      passwordHash: input.passwordHash,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      role: invitation.role,
      emailVerified: true,
    });
    await ports.audit.record({
      organizationId: invitation.organizationId,
      action: 'member.joined',
      actor: userActor(user.id),
      target: { type: 'user', id: String(user.id) },
      origin: input.origin,
      details: {
        role: invitation.role,
        invitation_id: invitation.id,
        invited_by: invitation.invitedByUserId,
        ...(invitation.invitedByApiKeyId === null ? {} : { invited_by_api_key: invitation.invitedByApiKeyId }),
        via: input.via,
      },
    });
    return { userId: user.id, organizationId: invitation.organizationId, role: invitation.role };
  });
}

async function issuerStillVouches(ports: Pick<OrganizationsPorts, 'users' | 'apiKeys'>, invitation: Invitation, now: Date): Promise<boolean> {
  if (invitation.invitedByApiKeyId !== null) {
    return invitingKeyVouches(invitation, await ports.apiKeys.findById(invitation.organizationId, invitation.invitedByApiKeyId), now);
  }
  const inviter = invitation.invitedByUserId === null ? null : await ports.users.findById(invitation.invitedByUserId);
  return inviterVouches(invitation, inviter);
}
