import { sendTokenEmail } from './account-emails';
import type { AccountsDeps } from './accounts-deps';
import { DomainError } from '../shared/domain-error';
import type { RateRule } from '../shared/rate-limiter.port';
import { normalizeEmail } from './user';

/** Sign-in links asked for one email: 3 an hour, like password-reset links per client IP. */
export const EMAIL_LINK_PER_EMAIL_RULE: RateRule = { count: 3, windowSeconds: 3600 };
const BUCKET = 'email-link-email';

/** The part of a request that writes the link: run it off the response path. */
export type EmailLinkDelivery = () => Promise<void>;

/**
 * Asks for an emailed sign-in link. First the per-email throttle, counted by the hash of the
 * normalized email whether or not an account has it (so a refusal tells nothing, and no address
 * sits in the rate-limit store); its refusal is the only answer the caller waits for. What
 * follows — the lookup, the token and its email — is handed back as a delivery for the caller
 * to run after answering, so the response time is the same whether or not the account exists.
 *
 * The link goes only to an active account of an active organization (a suspended one cannot
 * sign in, so a link would only be a live credential in a mailbox); an unverified account gets
 * one too, since opening it proves the mailbox. Issuing a link voids the account's older unused
 * ones, and the token and its email commit together.
 */
export class RequestEmailLink {
  constructor(
    private readonly deps: Pick<
      AccountsDeps,
      'organizations' | 'settings' | 'unitOfWork' | 'users' | 'clock' | 'outbox' | 'tokenGenerator' | 'tokenHasher' | 'tokens' | 'rateLimiter'
    >,
  ) {}

  async execute(input: { email: string }): Promise<EmailLinkDelivery> {
    const email = normalizeEmail(input.email);
    const decision = await this.deps.rateLimiter.consume(BUCKET, this.deps.tokenHasher.hash(`${BUCKET}:${email}`), EMAIL_LINK_PER_EMAIL_RULE);
    if (!decision.allowed) {
      throw new DomainError('TOO_MANY_ATTEMPTS', 'Too many sign-in links asked for this email, try again later', { retry_after: decision.retryAfterSeconds });
    }
    return () =>
      this.deps.unitOfWork.transaction(async () => {
        const user = await this.deps.users.findByEmail(email);
        if (!user || user.status !== 'active') return;
        if ((await this.deps.organizations.findById(user.organizationId))?.status !== 'active') return;
        await sendTokenEmail(this.deps, this.deps.settings, user, 'email_link_sign_in');
      });
  }
}
