import { DomainError } from '../shared/domain-error';
import type { RateLimiter, RateRule } from '../shared/rate-limiter.port';

/** 10 second-factor guesses per account per 15 minutes, whatever the number of challenges or client addresses. */
export const SECOND_FACTOR_RULE: RateRule = { count: 10, windowSeconds: 900 };
const BUCKET = 'mfa-account';

const refused = (retryAfterSeconds: number) =>
  new DomainError('TOO_MANY_ATTEMPTS', 'Too many wrong codes for this account, try again later', { retry_after: retryAfterSeconds });

/**
 * Bounds guesses at one account's second factor. A challenge bounds its own tries, but a stolen
 * password buys as many challenges as it is typed in (from as many addresses), so the bound that
 * matters is per account: every code presented for the account counts here before it is looked
 * at (so concurrent guesses cannot slip past the count), a completed sign-in clears the count,
 * and while the window is full no new challenge is issued either. Counted in the shared
 * rate-limit store, keyed by user id.
 */
export class SecondFactorThrottle {
  constructor(
    private readonly ports: { rateLimiter: RateLimiter },
    private readonly rule: RateRule = SECOND_FACTOR_RULE,
  ) {}

  /** Throws TOO_MANY_ATTEMPTS (with `retry_after`) while the account's window is full; counts nothing. */
  async assertOpen(userId: number): Promise<void> {
    const decision = await this.ports.rateLimiter.check(BUCKET, key(userId), this.rule);
    if (!decision.allowed) throw refused(decision.retryAfterSeconds);
  }

  /** Counts one guess, or throws TOO_MANY_ATTEMPTS when the window already holds its share. */
  async takeGuess(userId: number): Promise<void> {
    const decision = await this.ports.rateLimiter.consume(BUCKET, key(userId), this.rule);
    if (!decision.allowed) throw refused(decision.retryAfterSeconds);
  }

  /** After a correct code: the owner holds the factor. */
  async reset(userId: number): Promise<void> {
    await this.ports.rateLimiter.reset(BUCKET, key(userId), this.rule);
  }
}

const key = (userId: number): string => `user:${userId}`;
