import type { RoleName } from '../accounts/role';
import { DomainError } from '../shared/domain-error';
import type { OrganizationsPorts } from './organizations-ports';

export interface RedeemInvitationInput {
  /** The hash of the token from the link (or of a pending invitation found another way). */
  tokenHash: string;
  /** Null for an account that signs in through the identity provider only. */
  passwordHash: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

export interface RedeemedInvitation {
  userId: number;
  organizationId: number;
  role: RoleName;
}

/**
 * Turns a pending invitation into a verified user with the invited role in the invited
 * organization (the emailed link proves the address). Independent of how the password is set,
 * so the identity-provider flow calls it with `passwordHash: null`. Joins the caller's
 * transaction if there is one; a failure (email taken meanwhile) leaves the invitation pending.
 */
export async function redeemInvitation(
  ports: Pick<OrganizationsPorts, 'invitations' | 'users' | 'clock' | 'unitOfWork'>,
  input: RedeemInvitationInput,
): Promise<RedeemedInvitation> {
  return ports.unitOfWork.transaction(async () => {
    const invitation = await ports.invitations.consume(input.tokenHash, ports.clock.now());
    if (!invitation) throw new DomainError('INVALID_TOKEN', 'This invitation is invalid or has expired');
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
    return { userId: user.id, organizationId: invitation.organizationId, role: invitation.role };
  });
}
