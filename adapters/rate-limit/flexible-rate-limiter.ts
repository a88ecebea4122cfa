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

/**
 * ioredis options for the rate-limit client: never queue or retry a command while Redis is away,
 * and give up on one that has no answer after 300 ms (a frozen Redis accepts and never answers).
 * Redis answers in well under a millisecond; 300 ms leaves room for a busy event loop while
 * keeping the first request of a freeze, the only one that waits, under the 0.5 s we promise.
 */
export const rateLimitRedisOptions = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 0,
  commandTimeout: 300,
} as const;

/** While Redis is failing, how often one background PING asks whether it is back. */
export const REDIS_PROBE_INTERVAL_MS = 1_000;

/**
 * Rate limits shared by every instance through Redis, on rate-limiter-flexible (one limit across
 * the fleet). The in-process fallback counts every request too, so when Redis does not answer it
 * takes over warm: a Redis outage degrades to per-instance limits rather than failing or stalling
 * requests, and a client already over its limit stays limited. The log says so once per outage.
 *
 * Once a command has failed, requests stop asking Redis (a login makes three calls, and each
 * would wait out the command time-out of a frozen Redis): the in-process counters decide alone,
 * and one PING at a time, at most every REDIS_PROBE_INTERVAL_MS and off the request path, finds
 * out when Redis answers again. So a Redis outage costs one command time-out, once.
 */
export class FlexibleRateLimiter implements RateLimiter {
  private readonly limiters = new Map<string, RateLimiterRedis>();
  private fallingBack = false;
  private probing = false;
  private lastProbeAt = 0;

  constructor(private readonly options: FlexibleRateLimiterOptions) {}

  async consume(bucket: string, key: string, rule: RateRule): Promise<RateDecision> {
    const local = this.options.fallback.consume(bucket, key, rule);
    if (this.skipShared()) return local;
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
    if (this.skipShared()) return this.options.fallback.check(bucket, key, rule);
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
    if (this.skipShared()) return;
    try {
      await this.limiterFor(bucket, rule).delete(key);
      this.sharedAnswered();
    } catch (error) {
      this.sharedFailed(error);
    }
  }

  /** True while Redis is failing: the caller decides in memory; a probe is started now and then. */
  private skipShared(): boolean {
    if (!this.fallingBack) return false;
    const now = performance.now();
    if (!this.probing && now - this.lastProbeAt >= REDIS_PROBE_INTERVAL_MS) {
      this.probing = true;
      this.lastProbeAt = now;
      this.options.redis.ping().then(
        () => this.sharedAnswered(),
        () => undefined,
      ).finally(() => (this.probing = false));
    }
    return true;
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
