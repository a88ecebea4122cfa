import type { JobsDeps } from './jobs-deps';

const DAY_MS = 86_400_000;

/**
 * Deletes sessions that expired more than `retentionDays` ago, in bounded batches so no run holds
 * a long transaction or many row locks while requests keep authenticating. Idempotent: two runs
 * at once, or a run repeated after a crash, delete each session at most once between them.
 */
export class PruneExpiredSessions {
  private readonly batchSize: number;
  private readonly maxBatches: number;

  constructor(private readonly deps: Pick<JobsDeps, 'sessions' | 'clock' | 'settings'>) {
    this.batchSize = deps.settings.batchSize ?? 5_000;
    this.maxBatches = deps.settings.maxBatches ?? 2_000;
  }

  /** Returns how many sessions were deleted. */
  async execute(): Promise<number> {
    const cutoff = new Date(this.deps.clock.now().getTime() - this.deps.settings.retentionDays * DAY_MS);
    let total = 0;
    for (let batch = 0; batch < this.maxBatches; batch += 1) {
      const deleted = await this.deps.sessions.pruneExpiredBefore(cutoff, this.batchSize);
      total += deleted;
      if (deleted < this.batchSize) break;
    }
    return total;
  }
}
