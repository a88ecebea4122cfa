import { sendTokenEmail } from './account-emails';
import type { AccountsDeps } from './accounts-deps';
import { normalizeEmail } from './user';

/**
 * Emails a reset link (single use, 1 h) when an active account of an active organization has
 * this email: a suspended organization's members cannot log in, so a link would only be a live
 * credential in a mailbox. Answers the same either way. Accounts created through the identity
 * provider may use it to set a password.
 */
export class ForgotPassword {
  constructor(private readonly deps: Pick<AccountsDeps, 'organizations' | 'settings' | 'unitOfWork' | 'users' | 'clock' | 'outbox' | 'tokenGenerator' | 'tokenHasher' | 'tokens'>) {}

  async execute(input: { email: string }): Promise<void> {
    await this.deps.unitOfWork.transaction(async () => {
      const user = await this.deps.users.findByEmail(normalizeEmail(input.email));
      if (!user || user.status !== 'active') return;
      if ((await this.deps.organizations.findById(user.organizationId))?.status !== 'active') return;
      await sendTokenEmail(this.deps, this.deps.settings, user, 'reset_password');
    });
  }
}
