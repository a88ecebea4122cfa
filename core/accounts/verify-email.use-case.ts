import { DomainError } from '../shared/domain-error';
import type { AccountsPorts } from './accounts-ports';

/** Consumes a verification token (single use, 24 h) and marks the email verified. */
export class VerifyEmail {
  constructor(private readonly ports: Pick<AccountsPorts, 'tokens' | 'tokenHasher' | 'users' | 'clock' | 'unitOfWork'>) {}

  async execute(input: { token: string }): Promise<void> {
    await this.ports.unitOfWork.transaction(async () => {
      const userId = await this.ports.tokens.consume('verify_email', this.ports.tokenHasher.hash(input.token), this.ports.clock.now());
      if (userId === null) throw new DomainError('INVALID_TOKEN', 'This link is invalid or has expired');
      await this.ports.users.markEmailVerified(userId);
    });
  }
}
