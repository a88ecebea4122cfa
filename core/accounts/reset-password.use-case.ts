import type { AccountsDeps } from './accounts-deps';
import { DomainError } from '../shared/domain-error';
import { assertValidPassword } from './password-policy';

/**
 * Sets a new password from an emailed token and revokes every session of the user, including
 * any in use: whoever knew the old password must lose access with it. The link proves control of the mailbox, so the email
 * counts as verified from here on.
 */
export class ResetPassword {
  constructor(
    private readonly deps: Pick<AccountsDeps, 'tokens' | 'tokenHasher' | 'users' | 'sessions' | 'passwordHasher' | 'clock' | 'unitOfWork'>,
  ) {}

  async execute(input: { token: string; newPassword: string }): Promise<void> {
    assertValidPassword(input.newPassword, 'newPassword');
    const passwordHash = await this.deps.passwordHasher.hash(input.newPassword);
    await this.deps.unitOfWork.transaction(async () => {
      const userId = await this.deps.tokens.consume('reset_password', this.deps.tokenHasher.hash(input.token), this.deps.clock.now());
      if (userId === null) throw new DomainError('INVALID_TOKEN', 'This link is invalid or has expired');
      await this.deps.users.setPasswordHash(userId, passwordHash);
      await this.deps.users.markEmailVerified(userId);
      await this.deps.sessions.revokeAllForUser(userId);
    });
  }
}
