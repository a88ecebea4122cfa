import { DomainError } from '../shared/domain-error';
import type { RateLimiter, RateRule } from '../shared/rate-limiter.port';
import type { TokenHasher } from './crypto.port';
import { normalizeEmail } from './user';

/** After 10 failed logins for one email within 15 minutes, that email is refused until the window passes. */
export const ACCOUNT_LOGIN_RULE: RateRule = { count: 10, windowSeconds: 900 };
const BUCKET = 'login-account';

/**
 * Per-account login throttling, whatever the client IP. The counter is keyed by the hash of the
 * normalized email, never by whether an account exists: an unknown email is counted, refused and
 * timed exactly like a known one, so the throttle cannot be used to find accounts. (The hash also
 * keeps addresses out of the rate-limit store.) Wrong second-factor codes count as failures too,
 * so a stolen password cannot buy unlimited code guesses by logging in again.
 */
export class LoginThrottle {
  constructor(
    private readonly ports: { rateLimiter: RateLimiter; tokenHasher: TokenHasher },
    private readonly rule: RateRule = ACCOUNT_LOGIN_RULE,
  ) {}

  /** Throws RATE_LIMITED (with `retry_after`) while the email's failures fill the window. */
  async assertOpen(email: string): Promise<void> {
    const decision = await this.ports.rateLimiter.check(BUCKET, this.key(email), this.rule);
    if (!decision.allowed) {
      throw new DomainError('TOO_MANY_ATTEMPTS', 'Too many failed logins for this account, try again later', { retry_after: decision.retryAfterSeconds });
    }
  }

  async recordFailure(email: string): Promise<void> {
    await this.ports.rateLimiter.consume(BUCKET, this.key(email), this.rule);
  }

  /** After a completed sign-in: the owner proved who they are. */
  async reset(email: string): Promise<void> {
    await this.ports.rateLimiter.reset(BUCKET, this.key(email), this.rule);
  }

  private key(email: string): string {
    return this.ports.tokenHasher.hash(`login-account:${normalizeEmail(email)}`);
  }
}
