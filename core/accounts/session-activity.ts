import type { Clock } from '../shared/clock.port';
import type { Logger } from '../shared/logger.port';
import type { SessionStore } from './session-store.port';

/** `lastSeenAt` is refreshed at most this often per session: one write per session per interval. */
export const SESSION_ACTIVITY_INTERVAL_MS = 5 * 60_000;

/**
 * Keeps `lastSeenAt` roughly current without putting a write on the request's critical path.
 * Authentication already reads `lastSeenAt`; only when it is older than the interval does it
 * ask for a refresh, which runs in the background. The store's conditional write keeps several
 * instances from writing the same session twice, and the in-flight set keeps one instance from
 * queueing duplicates. A failed write is logged and dropped: the next request retries it.
 */
export class SessionActivity {
  private readonly inFlight = new Map<number, Promise<void>>();

  constructor(
    private readonly ports: { sessions: Pick<SessionStore, 'recordActivity'>; clock: Clock; logger: Logger },
    private readonly intervalMs = SESSION_ACTIVITY_INTERVAL_MS,
  ) {}

  /** Whether a session last seen at `lastSeenAt` is due a refresh at `now`. */
  isStale(lastSeenAt: Date, now: Date): boolean {
    return now.getTime() - lastSeenAt.getTime() >= this.intervalMs;
  }

  /** Schedules a refresh of `sessionId` seen at `now`; returns at once. */
  touch(sessionId: number, now: Date): void {
    if (this.inFlight.has(sessionId)) return;
    const staleBefore = new Date(now.getTime() - this.intervalMs + 1);
    const write = this.ports.sessions
      .recordActivity(sessionId, now, staleBefore)
      .then(
        () => undefined,
        (error: unknown) => this.ports.logger.warn({ err: error, session_id: sessionId }, 'could not record session activity'),
      )
      .finally(() => this.inFlight.delete(sessionId));
    this.inFlight.set(sessionId, write);
  }

  /** Waits for the refreshes already scheduled (tests, and a graceful shutdown). */
  async flush(): Promise<void> {
    await Promise.all([...this.inFlight.values()]);
  }
}
