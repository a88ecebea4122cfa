import type { Clock } from '../shared/clock.port';
import type { Logger } from '../shared/logger.port';
import { ThrottledActivity } from '../shared/throttled-activity';
import type { SessionStore } from './session-store.port';

/** `lastSeenAt` is refreshed at most this often per session: one write per session per interval. */
export const SESSION_ACTIVITY_INTERVAL_MS = 5 * 60_000;

/** Keeps sessions' `lastSeenAt` roughly current, off the request's critical path (ThrottledActivity). */
export class SessionActivity extends ThrottledActivity {
  constructor(ports: { sessions: Pick<SessionStore, 'recordActivity'>; clock: Clock; logger: Logger }, intervalMs = SESSION_ACTIVITY_INTERVAL_MS) {
    super({ record: (id, at, staleBefore) => ports.sessions.recordActivity(id, at, staleBefore), logger: ports.logger }, intervalMs, 'session');
  }
}
