import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from './iso-time';

describe('isoTime', () => {
  it('writes what toISOString writes, for any time from 1970 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 253_402_300_799_999 }), (time) => {
        expect(isoTime(new Date(time))).toBe(new Date(time).toISOString());
      }),
      { numRuns: 20_000 },
    );
  });

  it('writes consecutive times of one day and of different days alike', () => {
    const times = [0, 1, 999, 86_399_999, 86_400_000, 951_782_400_000, 951_868_799_999, 1_795_734_000_123, 1_795_734_000_124, 253_402_300_799_999];
    expect(times.map((time) => isoTime(new Date(time)))).toEqual(times.map((time) => new Date(time).toISOString()));
  });

  it('writes times of one minute, of the next, across midnight and back again alike', () => {
    const base = 1_795_737_540_000; // 2026-11-26T23:59:00.000Z
    const times = [base, base + 1, base + 59_999, base + 60_000, base + 60_001, base + 59_998, base - 1, base + 86_400_000, base + 7];
    expect(times.map((time) => isoTime(new Date(time)))).toEqual(times.map((time) => new Date(time).toISOString()));
  });

  it('leaves years outside 1970–9999 to toISOString, and throws as it does for an invalid date', () => {
    for (const time of [-1, -62_198_755_200_000, 253_402_300_800_000, 8.64e15]) expect(isoTime(new Date(time))).toBe(new Date(time).toISOString());
    expect(() => isoTime(new Date(Number.NaN))).toThrow(RangeError);
  });
});
