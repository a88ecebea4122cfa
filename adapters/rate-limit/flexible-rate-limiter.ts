import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { RateDecision, RateLimiter, RateRule } from '../../core/shared/rate-limiter.port';

/**
 * RateLimiter on rate-limiter-flexible. With a Redis client the counters are shared by every
 * instance (one limit across the fleet); each Redis limiter carries an in-memory insurance
 * limiter, so a Redis outage degrades to per-instance limits instead of failing requests.
 */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, RateLimiterAbstract>();

  constructor(private readonly redis?: Redis, private readonly keyPrefix = 'tenantkit:rl') {}

  async consume(bucket: string, key: string, rule: RateRule): Promise<RateDecision> {
    try {
      await this.limiterFor(bucket, rule).consume(key);
      return { allowed: true };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
      throw rejection;
    }
  }

  private limiterFor(bucket: string, rule: RateRule): RateLimiterAbstract {
    const id = `${bucket}:${rule.count}/${rule.windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      const options = { points: rule.count, duration: rule.windowSeconds, keyPrefix: `${this.keyPrefix}:${id}` };
      limiter = this.redis
        ? new RateLimiterRedis({ ...options, storeClient: this.redis, insuranceLimiter: new RateLimiterMemory(options) })
        : new RateLimiterMemory(options);
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
