import { sendTokenEmail } from './account-emails';
import type { AccountsDeps } from './accounts-deps';
import { normalizeEmail } from './user';

/**
 * Sends a fresh verification link to an existing, unverified, active account. Answers the same
 * (nothing) whether or not the account exists, so it cannot be used to enumerate accounts.
 */
export class ResendVerification {
  constructor(private readonly deps: Pick<AccountsDeps, 'settings' | 'unitOfWork' | 'users' | 'clock' | 'outbox' | 'tokenGenerator' | 'tokenHasher' | 'tokens'>) {}

  async execute(input: { email: string }): Promise<void> {
    await this.deps.unitOfWork.transaction(async () => {
      const user = await this.deps.users.findByEmail(normalizeEmail(input.email));
      if (!user || user.emailVerified || user.status !== 'active') return;
      await sendTokenEmail(this.deps, this.deps.settings, user, 'verify_email');
    });
  }
}
