import type { Logger } from './logger.port';

/**
 * A conditional write of "last used at": sets it to `at` only when the stored value is older than
 * `staleBefore` (or unset), so instances that see the same record at once write it once.
 */
export type RecordActivity = (id: number, at: Date, staleBefore: Date) => Promise<boolean>;

/**
 * Keeps a "last used at" roughly current without putting a write on the request's critical path.
 * Authentication already reads the stored time; only when it is older than the interval does it
 * ask for a refresh, which runs in the background (the request does not wait for it). The
 * store's conditional write keeps several instances from writing the same record twice, and the
 * in-flight set keeps one instance from queueing duplicates. A failed write is logged and
 * dropped: the next request retries it.
 */
export class ThrottledActivity {
  private readonly inFlight = new Map<number, Promise<void>>();

  constructor(
    private readonly ports: { record: RecordActivity; logger: Logger },
    /** At most one write per record per this many milliseconds. */
    readonly intervalMs: number,
    /** Names the record in the log line of a failed write (`session`, `api_key`). */
    private readonly what: string,
  ) {}

  /** Whether a record last used at `lastUsedAt` (null: never) is due a refresh at `now`. */
  isStale(lastUsedAt: Date | null, now: Date): boolean {
    return lastUsedAt === null || now.getTime() - lastUsedAt.getTime() >= this.intervalMs;
  }

  /** Schedules a refresh of record `id` used at `now`; returns at once. */
  touch(id: number, now: Date): void {
    if (this.inFlight.has(id)) return;
    const staleBefore = new Date(now.getTime() - this.intervalMs + 1);
    const write = this.ports
      .record(id, now, staleBefore)
      .then(
        () => undefined,
        (error: unknown) => this.ports.logger.warn({ err: error, [`${this.what}_id`]: id }, `could not record ${this.what} activity`),
      )
      .finally(() => this.inFlight.delete(id));
    this.inFlight.set(id, write);
  }

  /** Waits for the refreshes already scheduled (tests, and a graceful shutdown). */
  async flush(): Promise<void> {
    await Promise.all([...this.inFlight.values()]);
  }
}
