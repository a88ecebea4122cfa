import type { Clock } from '../../core/shared/clock.port';
import type { RateDecision, RateLimiter, RateRule } from '../../core/shared/rate-limiter.port';

interface Window {
  count: number;
  /** Epoch milliseconds. */
  endsAt: number;
}

/** About 300 bytes per key: 100,000 keys stay near 30 MB whatever the traffic (docs/security.md). */
export const DEFAULT_MAX_KEYS = 100_000;

/** Evicted at once when full of live windows, so a flood of new keys costs one sweep per this many. */
const EVICT_FRACTION = 0.1;

/**
 * Fixed-window counters in this process, for one instance without Redis. rate-limiter-flexible's
 * memory store keeps one entry (and one timer) per key until its window ends, with no cap: 50,000
 * spoofed addresses cost 125 MB. This one holds at most `maxKeys` windows. When full it first
 * drops the windows that have ended; if all are live it drops the oldest tenth (a Map iterates
 * in insertion order, and a window is re-inserted when it restarts, so those started longest
 * ago). An evicted key starts a fresh window: under a flood of distinct keys the limit degrades
 * for the oldest keys instead of the process running out of memory.
 */
export class BoundedMemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly clock: Clock,
    readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {
    if (!Number.isInteger(maxKeys) || maxKeys < 1) throw new RangeError(`maxKeys must be a positive integer, got ${maxKeys}`);
  }

  /** How many windows are held; for tests and metrics. */
  get size(): number {
    return this.windows.size;
  }

  async consume(bucket: string, key: string, rule: RateRule): Promise<RateDecision> {
    const id = `${bucket}:${rule.count}/${rule.windowSeconds}:${key}`;
    const now = this.clock.now().getTime();
    let window = this.windows.get(id);
    if (!window || window.endsAt <= now) {
      this.windows.delete(id);
      this.makeRoom(now);
      window = { count: 0, endsAt: now + rule.windowSeconds * 1000 };
      this.windows.set(id, window);
    }
    window.count += 1;
    if (window.count <= rule.count) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
  }

  async check(bucket: string, key: string, rule: RateRule): Promise<RateDecision> {
    const now = this.clock.now().getTime();
    const window = this.windows.get(`${bucket}:${rule.count}/${rule.windowSeconds}:${key}`);
    if (!window || window.endsAt <= now || window.count < rule.count) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
  }

  async reset(bucket: string, key: string, rule: RateRule): Promise<void> {
    this.windows.delete(`${bucket}:${rule.count}/${rule.windowSeconds}:${key}`);
  }

  private makeRoom(now: number): void {
    if (this.windows.size < this.maxKeys) return;
    for (const [id, window] of this.windows) if (window.endsAt <= now) this.windows.delete(id);
    if (this.windows.size < this.maxKeys) return;
    let evict = Math.max(1, Math.ceil(this.maxKeys * EVICT_FRACTION));
    for (const id of this.windows.keys()) {
      if (evict === 0) break;
      this.windows.delete(id);
      evict -= 1;
    }
  }
}
