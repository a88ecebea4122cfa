import { sendTokenEmail } from './account-emails';
import type { AccountsPorts, AccountsSettings } from './accounts-ports';
import { normalizeEmail } from './user';

/**
 * Emails a reset link (single use, 1 h) when an active account has this email. Answers the
 * same either way. Accounts created through the identity provider may use it to set a password.
 */
export class ForgotPassword {
  constructor(
    private readonly ports: AccountsPorts,
    private readonly settings: AccountsSettings,
  ) {}

  async execute(input: { email: string }): Promise<void> {
    await this.ports.unitOfWork.transaction(async () => {
      const user = await this.ports.users.findByEmail(normalizeEmail(input.email));
      if (!user || user.status !== 'active') return;
      await sendTokenEmail(this.ports, this.settings, user, 'reset_password');
    });
  }
}
