import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../core/shared/rate-limiter.port';

/** What every RateLimiter must do: count per (bucket, key), refuse past the count, say when to retry. */
export function describeRateLimiterContract(name: string, make: () => Promise<{ limiter: RateLimiter; teardown(): Promise<void> }>) {
  describe(`RateLimiter contract: ${name}`, () => {
    const unique = () => `k-${Math.random().toString(36).slice(2)}`;

    it('allows `count` events in the window and refuses the next with a positive retry-after ≤ the window', async () => {
      const { limiter, teardown } = await make();
      try {
        const key = unique();
        for (let i = 0; i < 5; i += 1) expect(await limiter.consume('login', key, { count: 5, windowSeconds: 900 })).toEqual({ allowed: true });
        const refused = await limiter.consume('login', key, { count: 5, windowSeconds: 900 });
        expect(refused.allowed).toBe(false);
        if (!refused.allowed) {
          expect(refused.retryAfterSeconds).toBeGreaterThan(0);
          expect(refused.retryAfterSeconds).toBeLessThanOrEqual(900);
        }
      } finally {
        await teardown();
      }
    });

    it('keeps keys and buckets apart', async () => {
      const { limiter, teardown } = await make();
      try {
        const [a, b] = [unique(), unique()];
        const rule = { count: 1, windowSeconds: 60 };
        expect((await limiter.consume('login', a, rule)).allowed).toBe(true);
        expect((await limiter.consume('login', a, rule)).allowed).toBe(false);
        expect((await limiter.consume('login', b, rule)).allowed).toBe(true);
        expect((await limiter.consume('signup', a, rule)).allowed).toBe(true);
      } finally {
        await teardown();
      }
    });

    it('check counts nothing and refuses once the window is full; reset empties it', async () => {
      const { limiter, teardown } = await make();
      try {
        const key = unique();
        const rule = { count: 3, windowSeconds: 900 };
        for (let i = 0; i < 5; i += 1) expect(await limiter.check('account', key, rule)).toEqual({ allowed: true });
        for (let i = 0; i < 3; i += 1) await limiter.consume('account', key, rule);
        const refused = await limiter.check('account', key, rule);
        expect(refused.allowed).toBe(false);
        if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThan(0);
        expect((await limiter.check('account', unique(), rule)).allowed).toBe(true);
        await limiter.reset('account', key, rule);
        await limiter.reset('account', key, rule);
        expect(await limiter.check('account', key, rule)).toEqual({ allowed: true });
        expect(await limiter.consume('account', key, rule)).toEqual({ allowed: true });
      } finally {
        await teardown();
      }
    });

    it('opens again after the window', async () => {
      const { limiter, teardown } = await make();
      try {
        const key = unique();
        const rule = { count: 1, windowSeconds: 1 };
        expect((await limiter.consume('short', key, rule)).allowed).toBe(true);
        expect((await limiter.consume('short', key, rule)).allowed).toBe(false);
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        expect((await limiter.consume('short', key, rule)).allowed).toBe(true);
      } finally {
        await teardown();
      }
    });
  });
}
