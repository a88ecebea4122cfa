import { pruneInBatches } from '../shared/prune-in-batches';
import type { AuditDeps } from './audit-deps';

const DAY_MS = 86_400_000;

/**
 * Deletes audit events that occurred more than `retentionDays` ago (APP_AUDIT_RETENTION_DAYS), in
 * bounded batches, as expired sessions are pruned: the only way an event is ever deleted.
 */
export class PruneAuditEvents {
  constructor(private readonly deps: Pick<AuditDeps, 'events' | 'clock' | 'settings'>) {}

  /** Returns how many events were deleted. */
  async execute(): Promise<number> {
    const cutoff = new Date(this.deps.clock.now().getTime() - this.deps.settings.retentionDays * DAY_MS);
    return pruneInBatches((before, batchSize) => this.deps.events.pruneOccurredBefore(before, batchSize), cutoff);
  }
}
