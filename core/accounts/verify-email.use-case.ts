import type { AccountsDeps } from './accounts-deps';
import { DomainError } from '../shared/domain-error';

/** Consumes a verification token (single use, 24 h) and marks the email verified. */
export class VerifyEmail {
  constructor(private readonly deps: Pick<AccountsDeps, 'tokens' | 'tokenHasher' | 'users' | 'clock' | 'unitOfWork'>) {}

  async execute(input: { token: string }): Promise<void> {
    await this.deps.unitOfWork.transaction(async () => {
      const userId = await this.deps.tokens.consume('verify_email', this.deps.tokenHasher.hash(input.token), this.deps.clock.now());
      if (userId === null) throw new DomainError('INVALID_TOKEN', 'This link is invalid or has expired');
      await this.deps.users.markEmailVerified(userId);
    });
  }
}
