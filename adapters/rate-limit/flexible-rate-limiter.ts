import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { Logger } from '../../core/shared/logger.port';
import type { RateDecision, RateLimiter, RateRule } from '../../core/shared/rate-limiter.port';

export interface FlexibleRateLimiterOptions {
  /**
   * Shared counters for every instance. The client must fail fast (no offline queue, a command
   * time-out: see `rateLimitRedisOptions`), or a Redis outage makes every rate-limited request
   * wait for it.
   */
  redis: Redis;
  /** Counts in this process, all along; decides while Redis does not answer (a BoundedMemoryRateLimiter). */
  fallback: RateLimiter;
  /** Redis key prefix; deployments sharing one Redis each use their own. */
  keyPrefix?: string;
  /** Told once per Redis outage that limits are counted per instance meanwhile, and once when shared counting resumes. */
  logger?: Logger;
}

/** ioredis options for the rate-limit client: never queue or retry a command while Redis is away. */
export const rateLimitRedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 500,
} as const;

/**
 * Rate limits shared by every instance through Redis, on rate-limiter-flexible (one limit across
 * the fleet). The in-process fallback counts every request too, so when Redis does not answer it
 * takes over warm: a Redis outage degrades to per-instance limits rather than failing or stalling
 * requests, and a client already over its limit stays limited. The log says so once per outage.
 */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, RateLimiterRedis>();
  private fallingBack = false;

  constructor(private readonly options: FlexibleRateLimiterOptions) {}

  async consume(bucket: string, key: string, rule: RateRule): Promise<RateDecision> {
    const local = this.options.fallback.consume(bucket, key, rule);
    try {
      await this.limiterFor(bucket, rule).consume(key);
      this.sharedAnswered();
      await local;
      return { allowed: true };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        this.sharedAnswered();
        await local;
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
      this.sharedFailed(rejection);
      return local;
    }
  }

  async check(bucket: string, key: string, rule: RateRule): Promise<RateDecision> {
    try {
      const state = await this.limiterFor(bucket, rule).get(key);
      this.sharedAnswered();
      if (!state || state.consumedPoints < rule.count) return { allowed: true };
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(state.msBeforeNext / 1000)) };
    } catch (error) {
      this.sharedFailed(error);
      return this.options.fallback.check(bucket, key, rule);
    }
  }

  /** Clears both counts; a Redis that does not answer leaves its count to expire with its window. */
  async reset(bucket: string, key: string, rule: RateRule): Promise<void> {
    await this.options.fallback.reset(bucket, key, rule);
    try {
      await this.limiterFor(bucket, rule).delete(key);
      this.sharedAnswered();
    } catch (error) {
      this.sharedFailed(error);
    }
  }

  private sharedAnswered(): void {
    if (!this.fallingBack) return;
    this.fallingBack = false;
    this.options.logger?.info({}, 'rate limits: Redis answers again; counting shared across instances');
  }

  private sharedFailed(error: unknown): void {
    if (this.fallingBack) return;
    this.fallingBack = true;
    const message = error instanceof Error ? error.message : String(error);
    this.options.logger?.warn({ err: { message } }, 'rate limits: Redis unreachable; counting per instance, in memory, until it answers');
  }

  private limiterFor(bucket: string, rule: RateRule): RateLimiterRedis {
    const id = `${bucket}:${rule.count}/${rule.windowSeconds}`;
    let limiter = this.limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        points: rule.count,
        duration: rule.windowSeconds,
        keyPrefix: `${this.options.keyPrefix ?? 'tenantkit:rl'}:${id}`,
        storeClient: this.options.redis,
        rejectIfRedisNotReady: true,
      });
      this.limiters.set(id, limiter);
    }
    return limiter;
  }
}
