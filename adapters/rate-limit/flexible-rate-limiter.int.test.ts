import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { describeRateLimiterContract } from '../../test/contracts/rate-limiter.contract';
import { requireRedis, TEST_REDIS_URL } from '../../test/support/postgres';
import { FlexibleRateLimiter } from './flexible-rate-limiter';

const REDIS_URL = TEST_REDIS_URL;
const redisUp = await requireRedis();

async function redisLimiter(prefix = `tk-test-rl-${randomUUID()}`) {
  const redis = new Redis(REDIS_URL, { protocol: 2, maxRetriesPerRequest: 1 });
  return {
    redis,
    limiter: new FlexibleRateLimiter(redis, prefix),
    async teardown() {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
      redis.disconnect();
    },
  };
}

if (redisUp) describeRateLimiterContract('redis', () => redisLimiter());

describe.skipIf(!redisUp)('FlexibleRateLimiter on Redis', () => {
  it('shares one limit between two instances (two processes behind a load balancer)', async () => {
    const prefix = `tk-test-rl-${randomUUID()}`;
    const a = await redisLimiter(prefix);
    const b = await redisLimiter(prefix);
    try {
      const rule = { count: 5, windowSeconds: 900 };
      const results = [];
      for (let i = 0; i < 6; i += 1) results.push((await (i % 2 ? a : b).limiter.consume('login', '203.0.113.9', rule)).allowed);
      expect(results).toEqual([true, true, true, true, true, false]);
    } finally {
      await a.teardown();
      await b.teardown();
    }
  });

  it('keeps limiting, per instance, when Redis is unreachable (insurance limiter)', async () => {
    const dead = new Redis('redis://127.0.0.1:1', { protocol: 2, maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true, retryStrategy: () => null });
    dead.on('error', () => {});
    const limiter = new FlexibleRateLimiter(dead, `tk-test-rl-${randomUUID()}`);
    try {
      const rule = { count: 2, windowSeconds: 60 };
      const results = [];
      for (let i = 0; i < 3; i += 1) results.push((await limiter.consume('login', '198.51.100.1', rule)).allowed);
      expect(results).toEqual([true, true, false]);
    } finally {
      dead.disconnect();
    }
  });
});
