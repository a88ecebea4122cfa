import type { MfaDeps } from './mfa-deps';

/** Rows per delete statement: each batch is its own short transaction. */
const BATCH_SIZE = 5_000;
/** Upper bound on batches per run; whatever is left waits for the next run. */
const MAX_BATCHES = 200;

/**
 * Deletes sign-in challenges that expired (they are useless after five minutes), in bounded
 * batches. Idempotent and safe to cut short.
 */
export class PruneExpiredChallenges {
  constructor(private readonly deps: Pick<MfaDeps, 'challenges' | 'clock'>) {}

  /** Returns how many challenges were deleted. */
  async execute(): Promise<number> {
    const cutoff = this.deps.clock.now();
    let total = 0;
    for (let batch = 0; batch < MAX_BATCHES; batch += 1) {
      const deleted = await this.deps.challenges.pruneExpiredBefore(cutoff, BATCH_SIZE);
      total += deleted;
      if (deleted < BATCH_SIZE) break;
    }
    return total;
  }
}
