import { describe, expect, it } from 'vitest';
import { describeRateLimiterContract } from '../../test/contracts/rate-limiter.contract';
import { FakeClock } from '../../test/support/fake-clock';
import { SystemClock } from '../system/system-clock';
import { BoundedMemoryRateLimiter } from './bounded-memory-rate-limiter';

describeRateLimiterContract('bounded in-memory', async () => ({ limiter: new BoundedMemoryRateLimiter(new SystemClock()), teardown: async () => {} }));

describe('BoundedMemoryRateLimiter', () => {
  const rule = { count: 2, windowSeconds: 60 };

  it('never holds more than maxKeys windows, whatever the number of distinct clients', async () => {
    const limiter = new BoundedMemoryRateLimiter(new FakeClock(), 1_000);
    for (let i = 0; i < 50_000; i += 1) await limiter.consume('login', `2001:db8:${i.toString(16)}::/64`, rule);
    expect(limiter.size).toBeLessThanOrEqual(1_000);
  });

  it('drops ended windows before live ones, so a client inside its window keeps its count', async () => {
    const clock = new FakeClock();
    const limiter = new BoundedMemoryRateLimiter(clock, 3);
    await limiter.consume('short', 'a', { count: 1, windowSeconds: 1 });
    await limiter.consume('short', 'b', { count: 1, windowSeconds: 1 });
    await limiter.consume('login', 'victim', { count: 1, windowSeconds: 900 });
    clock.advance(2_000);
    await limiter.consume('short', 'c', { count: 1, windowSeconds: 1 });
    await limiter.consume('short', 'd', { count: 1, windowSeconds: 1 });

    expect(await limiter.consume('login', 'victim', { count: 1, windowSeconds: 900 })).toEqual({ allowed: false, retryAfterSeconds: 898 });
  });

  it('counts per window from the clock, and answers the seconds left', async () => {
    const clock = new FakeClock();
    const limiter = new BoundedMemoryRateLimiter(clock);
    expect(await limiter.consume('b', 'k', rule)).toEqual({ allowed: true });
    expect(await limiter.consume('b', 'k', rule)).toEqual({ allowed: true });
    clock.advance(30_500);
    expect(await limiter.consume('b', 'k', rule)).toEqual({ allowed: false, retryAfterSeconds: 30 });
    clock.advance(29_500);
    expect(await limiter.consume('b', 'k', rule)).toEqual({ allowed: true });
  });
});
