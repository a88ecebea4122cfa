import type { SessionStore } from '../accounts/session-store.port';
import type { Clock } from '../shared/clock.port';

/** What a jobs use case is built from; each takes the `Pick` it needs as its one `deps`. */
export interface JobsDeps {
  sessions: SessionStore;
  clock: Clock;
  settings: PruneSettings;
}

export interface PruneSettings {
  /** Expired sessions are kept this long after `expiresAt` (APP_CRON_SESSION_RETENTION_DAYS). */
  retentionDays: number;
  /** Rows per delete statement: each batch is its own short transaction. */
  batchSize?: number;
  /** Upper bound on batches per run; whatever is left waits for the next run. */
  maxBatches?: number;
}
