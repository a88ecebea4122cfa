import { describe, expect, it } from 'vitest';
import { parseRateRule } from '../../core/shared/rate-limiter.port';

describe('parseRateRule', () => {
  it('reads the rules the routes use', () => {
    expect(parseRateRule('5/15m')).toEqual({ count: 5, windowSeconds: 900 });
    expect(parseRateRule('3/hour')).toEqual({ count: 3, windowSeconds: 3600 });
    expect(parseRateRule('10/minute')).toEqual({ count: 10, windowSeconds: 60 });
  });

  it('refuses malformed rules', () => {
    for (const rule of ['', '5', '5/', 'x/m', '0/m', '5/15fortnights']) expect(() => parseRateRule(rule)).toThrow();
  });
});
