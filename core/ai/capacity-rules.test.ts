import { describe, expect, it } from 'vitest';
import { chargeUsage, estimateTokens, MAX_OUTPUT_TOKENS, MIN_OUTPUT_TOKENS, planReservation } from './capacity-rules';

const UNLIMITED = -1;

describe('planReservation', () => {
  it.each([
    // [what, limit, committed, credits, input, expected]
    ['exactly input + 200 fits, with an output bound of 200', 1_200, 0, 0, 1_000, { allotmentTokens: 1_200, creditTokens: 0, overageTokens: 0, maxOutputTokens: 200 }],
    ['room for 2000 or more gives the 2000 bound', 10_000, 0, 0, 1_000, { allotmentTokens: 3_000, creditTokens: 0, overageTokens: 0, maxOutputTokens: 2_000 }],
    ['room in between gives what is left after the input', 1_000, 200, 0, 300, { allotmentTokens: 800, creditTokens: 0, overageTokens: 0, maxOutputTokens: 500 }],
    ['unlimited allotment always gives 2000, all to the allotment', UNLIMITED, 9_999_999, 0, 5_000, { allotmentTokens: 7_000, creditTokens: 0, overageTokens: 0, maxOutputTokens: 2_000 }],
    ['credits cover what the allotment cannot, allotment first', 1_000, 600, 5_000, 100, { allotmentTokens: 400, creditTokens: 1_700, overageTokens: 0, maxOutputTokens: 2_000 }],
    ['credits alone (a zero allotment) hold a call', 0, 0, 250, 50, { allotmentTokens: 0, creditTokens: 250, overageTokens: 0, maxOutputTokens: 200 }],
    ['an over-committed allotment counts as none left', 1_000, 1_500, 300, 100, { allotmentTokens: 0, creditTokens: 300, overageTokens: 0, maxOutputTokens: 200 }],
  ])('%s', (_, allotmentLimit, allotmentCommitted, creditBalance, input, expected) => {
    expect(planReservation({ allotmentLimit, allotmentCommitted, creditBalance }, input, false)).toEqual(expected);
  });

  it.each([
    ['one token short of input + 200 in the allotment', 1_199, 0, 0, 1_000],
    ['one token short across allotment and credits', 600, 0, 599, 1_000],
    ['a zero allotment and no credits', 0, 0, 0, 1],
    ['an allotment used up and no credits', 5_000, 5_000, 0, 1],
  ])('refuses %s (null)', (_, allotmentLimit, allotmentCommitted, creditBalance, input) => {
    expect(planReservation({ allotmentLimit, allotmentCommitted, creditBalance }, input, false)).toBeNull();
  });

  it('with overage allowed, never refuses: the bound is 2000 and what capacity cannot cover is overage', () => {
    expect(planReservation({ allotmentLimit: 0, allotmentCommitted: 0, creditBalance: 0 }, 1_000, true)).toEqual({
      allotmentTokens: 0,
      creditTokens: 0,
      overageTokens: 3_000,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
    });
    expect(planReservation({ allotmentLimit: 1_000, allotmentCommitted: 500, creditBalance: 700 }, 1_000, true)).toEqual({
      allotmentTokens: 500,
      creditTokens: 700,
      overageTokens: 1_800,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
    });
  });

  it('with overage allowed and room for the whole call, holds no overage', () => {
    expect(planReservation({ allotmentLimit: 10_000, allotmentCommitted: 0, creditBalance: 0 }, 100, true)).toEqual({
      allotmentTokens: 2_100,
      creditTokens: 0,
      overageTokens: 0,
      maxOutputTokens: MAX_OUTPUT_TOKENS,
    });
  });

  it('never holds more credits than the balance, nor more allotment than is free', () => {
    for (const [limit, committed, credits, input] of [
      [1_000, 0, 0, 800],
      [1_000, 999, 5_000, 10],
      [0, 0, 1_234, 1_000],
      [50, 10, 10, 100],
    ] as const) {
      const plan = planReservation({ allotmentLimit: limit, allotmentCommitted: committed, creditBalance: credits }, input, false);
      if (!plan) continue;
      expect(plan.allotmentTokens).toBeLessThanOrEqual(Math.max(0, limit - committed));
      expect(plan.creditTokens).toBeLessThanOrEqual(credits);
      expect(plan.allotmentTokens + plan.creditTokens).toBe(input + plan.maxOutputTokens);
      expect(plan.maxOutputTokens).toBeGreaterThanOrEqual(MIN_OUTPUT_TOKENS);
    }
  });
});

describe('chargeUsage', () => {
  const held = (allotmentTokens: number, creditTokens: number, overageAllowed = false) => ({ allotmentTokens, creditTokens, overageAllowed });
  const noneFree = { allotment: 0, credits: 0 };

  it('charges what was used within the reservation, allotment first, then credits', () => {
    expect(chargeUsage(1_500, held(1_000, 1_000), noneFree)).toEqual({ allotmentTokens: 1_000, creditTokens: 500, overageTokens: 0, unbilledTokens: 0 });
    expect(chargeUsage(300, held(1_000, 1_000), noneFree)).toEqual({ allotmentTokens: 300, creditTokens: 0, overageTokens: 0, unbilledTokens: 0 });
  });

  it('charges usage beyond the reservation to free allotment, then the free balance', () => {
    expect(chargeUsage(3_000, held(1_000, 500), { allotment: 700, credits: 10_000 })).toEqual({ allotmentTokens: 1_700, creditTokens: 1_300, overageTokens: 0, unbilledTokens: 0 });
  });

  it('leaves usage beyond every bit of capacity unbilled when overage is off: the cap holds', () => {
    expect(chargeUsage(5_000, held(1_000, 500), { allotment: 100, credits: 200 })).toEqual({ allotmentTokens: 1_100, creditTokens: 700, overageTokens: 0, unbilledTokens: 3_200 });
  });

  it('charges usage beyond every bit of capacity to overage when the reservation allowed it', () => {
    expect(chargeUsage(5_000, held(1_000, 500, true), { allotment: 100, credits: 200 })).toEqual({ allotmentTokens: 1_100, creditTokens: 700, overageTokens: 3_200, unbilledTokens: 0 });
  });

  it('charges an unlimited allotment with everything', () => {
    expect(chargeUsage(1_000_000, held(2_100, 0), { allotment: Number.POSITIVE_INFINITY, credits: 50 })).toEqual({
      allotmentTokens: 1_000_000,
      creditTokens: 0,
      overageTokens: 0,
      unbilledTokens: 0,
    });
  });

  it('charges nothing for a call that used nothing', () => {
    expect(chargeUsage(0, held(1_000, 1_000, true), { allotment: 5, credits: 5 })).toEqual({ allotmentTokens: 0, creditTokens: 0, overageTokens: 0, unbilledTokens: 0 });
  });
});

describe('estimateTokens', () => {
  it.each([
    [[''], 0],
    [['abcd'], 1],
    [['abcde'], 2],
    [['ab', 'cd'], 1],
    [['ab', 'cde'], 2],
    // Characters, not UTF-16 units nor bytes: an emoji is one character.
    [['🚀🚀🚀🚀'], 1],
    [['é'.repeat(8)], 2],
  ])('estimates %j as %i tokens (characters ÷ 4, rounded up, over all texts)', (texts, tokens) => {
    expect(estimateTokens(...texts)).toBe(tokens);
  });
});
