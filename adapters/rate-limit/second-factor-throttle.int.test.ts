import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { requireRedis, TEST_REDIS_URL } from '../../test/support/postgres';
import { SecondFactorThrottle } from '../../core/mfa/second-factor-throttle';
import { FlexibleRateLimiter, rateLimitRedisOptions } from './flexible-rate-limiter';
import { BoundedMemoryRateLimiter } from './bounded-memory-rate-limiter';
import { SystemClock } from '../system/system-clock';

const redisUp = await requireRedis();

describe.skipIf(!redisUp)('SecondFactorThrottle on Redis', () => {
  it('gives one account 10 guesses in all when 60 arrive at once at two instances', async () => {
    const prefix = `tk-test-mfa-${randomUUID()}`;
    const clients = [0, 1].map(() => new Redis(TEST_REDIS_URL, { protocol: 2, ...rateLimitRedisOptions }));
    try {
      await Promise.all(clients.map((redis) => new Promise((resolve) => redis.once('ready', resolve))));
      const instances = clients.map(
        (redis) => new SecondFactorThrottle({ rateLimiter: new FlexibleRateLimiter({ redis, fallback: new BoundedMemoryRateLimiter(new SystemClock()), keyPrefix: prefix }) }),
      );
      const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => instances[i % 2]!.takeGuess(42)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
      expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason.code)).toEqual(Array(50).fill('TOO_MANY_ATTEMPTS'));
      // Either instance refuses a new challenge; another account is untouched.
      await expect(instances[1]!.assertOpen(42)).rejects.toMatchObject({ code: 'TOO_MANY_ATTEMPTS', details: { retry_after: expect.any(Number) } });
      await expect(instances[0]!.assertOpen(43)).resolves.toBeUndefined();
    } finally {
      const keys = await clients[0]!.keys(`${prefix}*`);
      if (keys.length > 0) await clients[0]!.del(...keys);
      for (const redis of clients) redis.disconnect();
    }
  });
});
