/** `count` events per `windowSeconds`, e.g. 5 per 900 s. */
export interface RateRule {
  count: number;
  windowSeconds: number;
}

export type RateDecision = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Fixed-window counters keyed by `bucket` (the rule's name) and `key` (usually the client IP).
 * Shared across instances when the adapter's store is shared. A window starts at the first
 * event counted in it and lasts `windowSeconds`.
 */
export interface RateLimiter {
  /** Counts one event; refused once the window already holds `count` events. */
  consume(bucket: string, key: string, rule: RateRule): Promise<RateDecision>;
  /** Whether one more event would be allowed now, without counting anything. */
  check(bucket: string, key: string, rule: RateRule): Promise<RateDecision>;
  /** Forgets the key's events in this bucket. Idempotent. */
  reset(bucket: string, key: string, rule: RateRule): Promise<void>;
}

const UNITS: Record<string, number> = { s: 1, second: 1, m: 60, minute: 60, h: 3600, hour: 3600, d: 86400, day: 86400 };

/** Parses `<count>/<n?><unit>` such as `5/15m`, `3/hour`, `10/minute`. */
export function parseRateRule(rule: string): RateRule {
  const match = /^(\d+)\/(\d*)\s*([a-z]+)$/.exec(rule.trim());
  const unit = match ? UNITS[match[3]!] : undefined;
  if (!match || unit === undefined) throw new Error(`Invalid rate rule "${rule}"`);
  const count = Number(match[1]);
  const windowSeconds = Number(match[2] || '1') * unit;
  if (count < 1 || windowSeconds < 1) throw new Error(`Invalid rate rule "${rule}"`);
  return { count, windowSeconds };
}
