import type { Caller } from '../access/caller';
import type { RoleName } from '../access/role';
import { normalizeEmail } from '../accounts/user';
import { DomainError, resourceNotFound } from '../shared/domain-error';
import type { RateRule } from '../shared/rate-limiter.port';
import type { Invitation } from './invitation';
import { issueInvitation } from './issue-invitation';
import { requireRole } from '../access/require-role';
import { assertMayGrant } from './membership-rules';
import type { OrganizationsDeps } from './organizations-deps';

/**
 * Any B2C signup is an org_admin, so invitations are open to anyone with a verified address:
 * without limits they send mail with our name on it to any address, as often as asked, and tell
 * which addresses are registered. Per organization: every attempt counts, the refused ones too
 * (that budget is what bounds enumeration). Per recipient, across organizations: only the
 * attempts that would send an email count, so nobody can use up someone else's budget with
 * probes that send nothing.
 */
export const INVITATION_LIMITS = {
  perOrganization: { bucket: 'invitation-organization', rule: { count: 20, windowSeconds: 3600 } },
  perRecipient: { bucket: 'invitation-recipient', rule: { count: 5, windowSeconds: 86_400 } },
} as const satisfies Record<string, { bucket: string; rule: RateRule }>;

/**
 * Invites an email into the caller's organization with a role no higher than the caller's own
 * (a member's, or an API key's: the invitation then stands while the key is live).
 * An address that already has an account gets EMAIL_ALREADY_EXISTS (a user belongs to one
 * organization); that answer costs a full password-hash comparison, as a login attempt does, so
 * probing addresses here is no cheaper than probing them at login. Inviting the same address
 * again replaces the pending invitation.
 */
export class CreateInvitation {
  constructor(
    private readonly deps: Pick<
      OrganizationsDeps,
      | 'organizations'
      | 'users'
      | 'invitations'
      | 'tokenGenerator'
      | 'tokenHasher'
      | 'clock'
      | 'outbox'
      | 'unitOfWork'
      | 'passwordHasher'
      | 'rateLimiter'
      | 'settings'
      | 'audit'
    >,
  ) {}

  async execute(caller: Caller, input: { email: string; role: RoleName }): Promise<Invitation> {
    requireRole(caller, 'org_admin');
    assertMayGrant(caller.role, input.role);
    const email = normalizeEmail(input.email);
    await this.consume(INVITATION_LIMITS.perOrganization, String(caller.organizationId));
    await this.deps.passwordHasher.verify(email, null);
    if (await this.deps.users.findByEmail(email)) {
      throw new DomainError('EMAIL_ALREADY_EXISTS', 'An account with this email already exists');
    }
    await this.consume(INVITATION_LIMITS.perRecipient, email);
    return this.deps.unitOfWork.transaction(async () => {
      const organization = await this.deps.organizations.findById(caller.organizationId);
      if (!organization) throw resourceNotFound('organization', caller.organizationId);
      return issueInvitation(this.deps, this.deps.settings, { organization, email, role: input.role, invitedBy: caller });
    });
  }

  private async consume(limit: { bucket: string; rule: RateRule }, key: string): Promise<void> {
    const decision = await this.deps.rateLimiter.consume(limit.bucket, key, limit.rule);
    if (!decision.allowed) {
      throw new DomainError('TOO_MANY_ATTEMPTS', 'Too many invitations, try again later', { retry_after: decision.retryAfterSeconds });
    }
  }
}
