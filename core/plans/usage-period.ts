/** A half-open interval of time: `start` ≤ t < `end`; `end` is the next period's `start`. */
export interface Period {
  start: Date;
  end: Date;
}

const DAY_MS = 86_400_000;
// A subscription whose stored period is this many periods behind is not rolled forward further:
// its provider state is lost, and the calendar month is the safer guess.
const MAX_ROLLOVERS = 1_200;

/** The UTC calendar month containing `at`. */
export function calendarMonth(at: Date): Period {
  const year = at.getUTCFullYear();
  const month = at.getUTCMonth();
  return { start: new Date(Date.UTC(year, month, 1)), end: new Date(Date.UTC(year, month + 1, 1)) };
}

/**
 * The subscription period containing `now`, from the last one the provider reported. Providers
 * renew periods in whole months (or years) anchored on a day of the month, clamped to shorter
 * months (an anchor on the 31st renews on Feb 28, or 29 in a leap year, then on Mar 31). When the
 * renewal event has not arrived yet, the period is rolled forward the same way, so usage never
 * keeps counting into an expired period; periods that are not whole months (weekly, daily) roll
 * by their length. Before `start`, and while `now` < `end`, the reported period is kept.
 */
export function subscriptionPeriod(reported: Period, now: Date): Period {
  const { start, end } = reported;
  if (now.getTime() < end.getTime()) return reported;
  const length = end.getTime() - start.getTime();
  if (length <= 0) return calendarMonth(now);
  const monthly = monthlyShape(start, end);
  if (!monthly) {
    const skipped = Math.floor((now.getTime() - end.getTime()) / length);
    if (skipped >= MAX_ROLLOVERS) return calendarMonth(now);
    const rolledStart = end.getTime() + skipped * length;
    return { start: new Date(rolledStart), end: new Date(rolledStart + length) };
  }
  let periodStart = end;
  for (let step = 1; step <= MAX_ROLLOVERS; step += 1) {
    const periodEnd = addMonthsAnchored(end, step * monthly.months, monthly.anchorDay);
    if (now.getTime() < periodEnd.getTime()) return { start: periodStart, end: periodEnd };
    periodStart = periodEnd;
  }
  return calendarMonth(now);
}

/** `months` whole months apart on one anchor day (clamped), at the same time of day; else null. */
function monthlyShape(start: Date, end: Date): { months: number; anchorDay: number } | null {
  const months = monthIndex(end) - monthIndex(start);
  if (months < 1 || timeOfDay(start) !== timeOfDay(end)) return null;
  const anchorDay = Math.max(start.getUTCDate(), end.getUTCDate());
  const fits = (date: Date) => date.getUTCDate() === Math.min(anchorDay, daysInMonth(date.getUTCFullYear(), date.getUTCMonth()));
  return fits(start) && fits(end) ? { months, anchorDay } : null;
}

/** `from` moved by `months` calendar months, landing on `anchorDay` or the month's last day. */
export function addMonthsAnchored(from: Date, months: number, anchorDay = from.getUTCDate()): Date {
  const target = monthIndex(from) + months;
  const year = Math.floor(target / 12);
  const month = target - year * 12;
  const day = Math.min(anchorDay, daysInMonth(year, month));
  return new Date(Date.UTC(year, month, day) + timeOfDay(from));
}

const monthIndex = (date: Date) => date.getUTCFullYear() * 12 + date.getUTCMonth();
const timeOfDay = (date: Date) => ((date.getTime() % DAY_MS) + DAY_MS) % DAY_MS;
const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
