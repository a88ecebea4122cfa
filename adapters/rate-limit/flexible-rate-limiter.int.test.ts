import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { describeRateLimiterContract } from '../../test/contracts/rate-limiter.contract';
import { requireRedis, TEST_REDIS_URL } from '../../test/support/postgres';
import { FlexibleRateLimiter, rateLimitRedisOptions } from './flexible-rate-limiter';
import { BoundedMemoryRateLimiter } from './bounded-memory-rate-limiter';
import { SystemClock } from '../system/system-clock';
import { recordingLogger } from '../../test/support/recording-logger';

const REDIS_URL = TEST_REDIS_URL;
const redisUp = await requireRedis();

async function redisLimiter(prefix = `tk-test-rl-${randomUUID()}`) {
  const redis = new Redis(REDIS_URL, { protocol: 2, ...rateLimitRedisOptions });
  // Until the client is connected the limiter counts in memory, which is not what these tests check.
  await new Promise((resolve) => redis.once('ready', resolve));
  return {
    redis,
    limiter: new FlexibleRateLimiter({ redis, fallback: new BoundedMemoryRateLimiter(new SystemClock()), keyPrefix: prefix }),
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

  it('keeps limiting, per instance, when Redis is unreachable, and says so in the log once', async () => {
    const dead = new Redis('redis://127.0.0.1:1', { protocol: 2, ...rateLimitRedisOptions, lazyConnect: true, retryStrategy: () => null });
    dead.on('error', () => {});
    const logger = recordingLogger();
    const limiter = new FlexibleRateLimiter({ redis: dead, fallback: new BoundedMemoryRateLimiter(new SystemClock()), keyPrefix: `tk-test-rl-${randomUUID()}`, logger });
    try {
      const rule = { count: 2, windowSeconds: 60 };
      const results = [];
      for (let i = 0; i < 3; i += 1) results.push((await limiter.consume('login', '198.51.100.1', rule)).allowed);
      expect(results).toEqual([true, true, false]);
      expect(logger.lines.filter((line) => line.level === 'warn').map((line) => line.message)).toEqual([
        'rate limits: Redis unreachable; counting per instance, in memory, until it answers',
      ]);
    } finally {
      dead.disconnect();
    }
  });

  it('does not wait for a frozen Redis: the command time-out hands over to the in-memory counters', async () => {
    // A server that accepts the connection and never answers (a paused or wedged Redis).
    const sockets = new Set<Socket>();
    const frozen = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => frozen.listen(0, '127.0.0.1', resolve));
    const port = (frozen.address() as { port: number }).port;
    const redis = new Redis({ host: '127.0.0.1', port, protocol: 2, ...rateLimitRedisOptions, enableReadyCheck: false });
    redis.on('error', () => {});
    const limiter = new FlexibleRateLimiter({ redis, fallback: new BoundedMemoryRateLimiter(new SystemClock()), keyPrefix: `tk-test-rl-${randomUUID()}` });
    try {
      await new Promise((resolve) => redis.once('ready', resolve));
      const started = performance.now();
      const rule = { count: 5, windowSeconds: 60 };
      const decision = await limiter.consume('login', '198.51.100.2', rule);
      expect(decision.allowed).toBe(true);
      expect(performance.now() - started).toBeLessThan(rateLimitRedisOptions.commandTimeout + 1_000);
      // A login asks three times: once the first question timed out, the others do not wait again.
      const next = performance.now();
      await limiter.check('login-account', 'someone', rule);
      await limiter.consume('login-account', 'someone', rule);
      await limiter.reset('login-account', 'someone', rule);
      expect(performance.now() - next).toBeLessThan(rateLimitRedisOptions.commandTimeout / 2);
    } finally {
      redis.disconnect();
      for (const socket of sockets) socket.destroy();
      frozen.close();
    }
  });
});
