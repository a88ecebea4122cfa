import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseTimestamp } from './timestamp';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A timestamptz in PostgreSQL's ISO output: optional fraction of 1–6 digits, offset ±HH or ±HH:MM. */
const pgTimestamp = fc
  .record({
    year: fc.integer({ min: 1, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.option(fc.stringMatching(/^\d{1,6}$/), { nil: undefined }),
    sign: fc.constantFrom('+', '-'),
    offsetHours: fc.integer({ min: 0, max: 15 }),
    offsetMinutes: fc.option(fc.constantFrom(0, 15, 30, 45), { nil: undefined }),
  })
  .map(
    (t) =>
      `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}` +
      `${t.fraction === undefined ? '' : `.${t.fraction}`}${t.sign}${pad(t.offsetHours)}${t.offsetMinutes === undefined ? '' : `:${pad(t.offsetMinutes)}`}`,
  );

describe('parseTimestamp', () => {
  it('reads what PostgreSQL writes exactly as new Date(text) does', () => {
    fc.assert(
      fc.property(pgTimestamp, (text) => {
        expect(parseTimestamp(text).getTime()).toStrictEqual(new Date(text).getTime());
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves every other spelling to new Date(text), invalid ones included', () => {
    for (const text of [
      '2026-11-26 09:55:33.123456+00',
      '2026-11-26T09:55:33.123Z',
      '0001-01-01 00:00:00+00 BC',
      '12026-11-26 09:55:33+00',
      '1850-01-01 00:00:00+00:09:21',
      'infinity',
      '-infinity',
      '2026-11-26 09:55:33',
      '2026-11-26 09:55:33.+00',
      '2026-11-26 09:55:33.1234567+00',
      '2026-13-26 09:55:33+00',
      '2026-11-26 24:00:00+00',
      '2026-02-29 10:00:00+00',
      '2024-02-29 10:00:00+00',
      '2026-04-31 10:00:00+00',
      '',
    ]) {
      expect(parseTimestamp(text).getTime()).toStrictEqual(new Date(text).getTime());
    }
  });

  it('passes a Date through as a copy', () => {
    const date = new Date('2026-11-26T09:55:33.123Z');
    expect(parseTimestamp(date)).not.toBe(date);
    expect(parseTimestamp(date).getTime()).toBe(date.getTime());
  });
});
