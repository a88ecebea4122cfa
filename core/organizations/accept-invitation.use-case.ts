import type { OrganizationsDeps } from './organizations-deps';
import { assertValidPassword } from '../accounts/password-policy';
import { redeemInvitation, type RedeemedInvitation } from './redeem-invitation';
import type { AuditOrigin } from '../audit/audit-event';
import { NO_ORIGIN } from '../audit/audit-actor';

export interface AcceptInvitationInput {
  token: string;
  password: string;
  firstName?: string | null;
  lastName?: string | null;
  /** Where the request came from, for the `member.joined` event; none when no request was involved. */
  origin?: AuditOrigin;
}

/**
 * Public: accepts an invitation with the token from the emailed link and a password (8..64).
 * Expired, used or revoked tokens give INVALID_TOKEN; an address that has an account by now
 * gives EMAIL_ALREADY_EXISTS. The user can log in straight away. The new member and their
 * `member.joined` event commit together.
 */
export class AcceptInvitation {
  constructor(
    private readonly deps: Pick<OrganizationsDeps, 'invitations' | 'users' | 'apiKeys' | 'organizations' | 'clock' | 'unitOfWork' | 'passwordHasher' | 'tokenHasher' | 'audit'>,
  ) {}

  async execute(input: AcceptInvitationInput): Promise<RedeemedInvitation> {
    assertValidPassword(input.password, 'password');
    // Hashed before the transaction: bcrypt is slow and must not hold a connection or a lock.
    const passwordHash = await this.deps.passwordHasher.hash(input.password);
    return redeemInvitation(this.deps, {
      tokenHash: this.deps.tokenHasher.hash(input.token),
      passwordHash,
      firstName: input.firstName ?? null,
      lastName: input.lastName ?? null,
      via: 'invitation_link',
      origin: input.origin ?? NO_ORIGIN,
    });
  }
}
