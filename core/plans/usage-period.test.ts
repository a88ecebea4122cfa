import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addMonthsAnchored, calendarMonth, subscriptionPeriod } from './usage-period';

const d = (iso: string) => new Date(iso);
const period = (start: string, end: string) => ({ start: d(start), end: d(end) });

describe('calendarMonth (UTC)', () => {
  it.each([
    ['2026-11-21T10:00:00.000Z', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', '2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['2027-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', '2027-02-01T00:00:00.000Z'],
    ['2028-02-29T12:00:00.000Z', '2028-02-01T00:00:00.000Z', '2028-03-01T00:00:00.000Z'],
    ['2027-02-28T23:59:59.999Z', '2027-02-01T00:00:00.000Z', '2027-03-01T00:00:00.000Z'],
  ])('at %s is [%s, %s)', (at, start, end) => {
    expect(calendarMonth(d(at))).toEqual(period(start, end));
  });

  it('is half-open: the end instant belongs to the next month', () => {
    const november = calendarMonth(d('2026-11-15T00:00:00.000Z'));
    expect(calendarMonth(november.end)).toEqual(period('2026-12-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'));
  });

  it('property: contains its instant and starts where the previous month ends', () => {
    fc.assert(
      fc.property(fc.date({ min: d('1971-01-01T00:00:00.000Z'), max: d('2200-01-01T00:00:00.000Z'), noInvalidDate: true }), (at) => {
        const month = calendarMonth(at);
        expect(month.start.getTime()).toBeLessThanOrEqual(at.getTime());
        expect(at.getTime()).toBeLessThan(month.end.getTime());
        expect(calendarMonth(new Date(month.start.getTime() - 1)).end).toEqual(month.start);
      }),
    );
  });
});

describe('addMonthsAnchored', () => {
  it('clamps to the end of shorter months and returns to the anchor after', () => {
    const jan31 = d('2027-01-31T09:30:00.000Z');
    expect(addMonthsAnchored(jan31, 1)).toEqual(d('2027-02-28T09:30:00.000Z'));
    expect(addMonthsAnchored(jan31, 2)).toEqual(d('2027-03-31T09:30:00.000Z'));
    expect(addMonthsAnchored(d('2028-01-31T00:00:00.000Z'), 1)).toEqual(d('2028-02-29T00:00:00.000Z'));
    expect(addMonthsAnchored(d('2028-02-29T00:00:00.000Z'), 12)).toEqual(d('2029-02-28T00:00:00.000Z'));
    expect(addMonthsAnchored(d('2028-02-29T00:00:00.000Z'), 48)).toEqual(d('2032-02-29T00:00:00.000Z'));
    expect(addMonthsAnchored(d('2026-12-15T00:00:00.000Z'), 1)).toEqual(d('2027-01-15T00:00:00.000Z'));
  });
});

describe('subscriptionPeriod', () => {
  const monthly = period('2026-11-05T08:00:00.000Z', '2026-12-05T08:00:00.000Z');

  it('is the reported period while now is inside it, up to the last millisecond', () => {
    expect(subscriptionPeriod(monthly, d('2026-11-05T08:00:00.000Z'))).toEqual(monthly);
    expect(subscriptionPeriod(monthly, d('2026-12-05T07:59:59.999Z'))).toEqual(monthly);
  });

  it('rolls over at the end instant when the renewal event is late', () => {
    expect(subscriptionPeriod(monthly, d('2026-12-05T08:00:00.000Z'))).toEqual(period('2026-12-05T08:00:00.000Z', '2027-01-05T08:00:00.000Z'));
    expect(subscriptionPeriod(monthly, d('2027-03-10T00:00:00.000Z'))).toEqual(period('2027-03-05T08:00:00.000Z', '2027-04-05T08:00:00.000Z'));
  });

  it('keeps a month-end anchor through February (non-leap and leap years)', () => {
    const janToFeb = period('2027-01-31T00:00:00.000Z', '2027-02-28T00:00:00.000Z');
    expect(subscriptionPeriod(janToFeb, d('2027-03-01T00:00:00.000Z'))).toEqual(period('2027-02-28T00:00:00.000Z', '2027-03-31T00:00:00.000Z'));
    expect(subscriptionPeriod(janToFeb, d('2027-04-15T00:00:00.000Z'))).toEqual(period('2027-03-31T00:00:00.000Z', '2027-04-30T00:00:00.000Z'));
    const febToMar = period('2028-02-29T00:00:00.000Z', '2028-03-31T00:00:00.000Z');
    expect(subscriptionPeriod(febToMar, d('2028-04-30T00:00:00.000Z'))).toEqual(period('2028-04-30T00:00:00.000Z', '2028-05-31T00:00:00.000Z'));
    const leapJan = period('2028-01-30T00:00:00.000Z', '2028-02-29T00:00:00.000Z');
    expect(subscriptionPeriod(leapJan, d('2028-03-01T00:00:00.000Z'))).toEqual(period('2028-02-29T00:00:00.000Z', '2028-03-30T00:00:00.000Z'));
  });

  it('rolls yearly periods anchored on Feb 29 to Feb 28, and back in the next leap year', () => {
    const yearly = period('2028-02-29T00:00:00.000Z', '2029-02-28T00:00:00.000Z');
    expect(subscriptionPeriod(yearly, d('2030-01-01T00:00:00.000Z'))).toEqual(period('2029-02-28T00:00:00.000Z', '2030-02-28T00:00:00.000Z'));
    expect(subscriptionPeriod(yearly, d('2031-06-01T00:00:00.000Z'))).toEqual(period('2031-02-28T00:00:00.000Z', '2032-02-29T00:00:00.000Z'));
  });

  it('rolls periods that are not whole months (weekly) by their length', () => {
    const weekly = period('2026-11-02T00:00:00.000Z', '2026-11-09T00:00:00.000Z');
    expect(subscriptionPeriod(weekly, d('2026-11-20T00:00:00.000Z'))).toEqual(period('2026-11-16T00:00:00.000Z', '2026-11-23T00:00:00.000Z'));
  });

  it('keeps the reported period before it starts, and falls back to the calendar month for an empty one', () => {
    expect(subscriptionPeriod(monthly, d('2026-11-01T00:00:00.000Z'))).toEqual(monthly);
    const empty = period('2026-11-05T00:00:00.000Z', '2026-11-05T00:00:00.000Z');
    expect(subscriptionPeriod(empty, d('2026-11-20T00:00:00.000Z'))).toEqual(calendarMonth(d('2026-11-20T00:00:00.000Z')));
  });

  it('property: a rolled period contains now, follows the reported one without gaps, and is one renewal long', () => {
    const start = fc.date({ min: d('2020-01-01T00:00:00.000Z'), max: d('2030-01-01T00:00:00.000Z'), noInvalidDate: true });
    fc.assert(
      fc.property(start, fc.constantFrom(1, 3, 12), fc.integer({ min: 0, max: 4000 * 86_400_000 }), (from, months, later) => {
        const reported = { start: from, end: addMonthsAnchored(from, months) };
        const now = new Date(reported.end.getTime() + later);
        const rolled = subscriptionPeriod(reported, now);
        expect(rolled.start.getTime()).toBeLessThanOrEqual(now.getTime());
        expect(now.getTime()).toBeLessThan(rolled.end.getTime());
        // The period just before `rolled` ends where `rolled` starts: no gap, no overlap.
        const previous = subscriptionPeriod(reported, new Date(rolled.start.getTime() - 1));
        expect(previous.end).toEqual(rolled.start);
        const spanDays = (rolled.end.getTime() - rolled.start.getTime()) / 86_400_000;
        expect(spanDays).toBeGreaterThanOrEqual(28 * months);
        expect(spanDays).toBeLessThanOrEqual(31 * months + 1);
      }),
      { numRuns: 500 },
    );
  });
});
