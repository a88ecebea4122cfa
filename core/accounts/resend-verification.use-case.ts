import { sendTokenEmail } from './account-emails';
import type { AccountsPorts, AccountsSettings } from './accounts-ports';
import { normalizeEmail } from './user';

/**
 * Sends a fresh verification link to an existing, unverified, active account. Answers the same
 * (nothing) whether or not the account exists, so it cannot be used to enumerate accounts.
 */
export class ResendVerification {
  constructor(
    private readonly ports: AccountsPorts,
    private readonly settings: AccountsSettings,
  ) {}

  async execute(input: { email: string }): Promise<void> {
    await this.ports.unitOfWork.transaction(async () => {
      const user = await this.ports.users.findByEmail(normalizeEmail(input.email));
      if (!user || user.emailVerified || user.status !== 'active') return;
      await sendTokenEmail(this.ports, this.settings, user, 'verify_email');
    });
  }
}
