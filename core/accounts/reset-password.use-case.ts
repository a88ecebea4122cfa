import type { AccountsDeps } from './accounts-deps';
import { DomainError } from '../shared/domain-error';
import { assertValidPassword } from './password-policy';
import { NO_ORIGIN, userActor } from '../audit/audit-actor';
import type { RequestOrigin } from '../access/caller';

/**
 * Sets a new password from an emailed token and revokes every session of the user, including
 * any in use: whoever knew the old password must lose access with it. The link proves control of the mailbox, so the email
 * counts as verified from here on. Records `password.reset` in the user's organization, acted by
 * the user (whoever holds the mailbox).
 */
export class ResetPassword {
  constructor(
    private readonly deps: Pick<AccountsDeps, 'tokens' | 'tokenHasher' | 'users' | 'sessions' | 'passwordHasher' | 'clock' | 'unitOfWork' | 'audit'>,
  ) {}

  async execute(input: { token: string; newPassword: string; origin?: RequestOrigin }): Promise<void> {
    assertValidPassword(input.newPassword, 'newPassword');
    const passwordHash = await this.deps.passwordHasher.hash(input.newPassword);
    await this.deps.unitOfWork.transaction(async () => {
      const userId = await this.deps.tokens.consume('reset_password', this.deps.tokenHasher.hash(input.token), this.deps.clock.now());
      if (userId === null) throw new DomainError('INVALID_TOKEN', 'This link is invalid or has expired');
      // Read here for the event's organization; gone since the link was sent: nothing to reset.
      const user = await this.deps.users.findById(userId);
      if (!user) throw new DomainError('INVALID_TOKEN', 'This link is invalid or has expired');
      await this.deps.users.setPasswordHash(userId, passwordHash);
      await this.deps.users.markEmailVerified(userId);
      const revoked = await this.deps.sessions.revokeAllForUser(userId);
      await this.deps.audit.record({
        organizationId: user.organizationId,
        action: 'password.reset',
        actor: userActor(userId),
        target: null,
        origin: input.origin ? { ip: input.origin.ip, userAgent: input.origin.userAgent } : NO_ORIGIN,
        details: { revoked_sessions: revoked },
      });
    });
  }
}
