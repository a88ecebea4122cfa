import type { Clock } from '../shared/clock.port';
import type { MfaChallengeStore } from './mfa-challenge-store.port';

/**
 * Deletes sign-in challenges that expired (they are useless after five minutes), in bounded
 * batches. Idempotent and safe to cut short.
 */
export class PruneExpiredChallenges {
  constructor(private readonly deps: { challenges: Pick<MfaChallengeStore, 'pruneExpiredBefore'>; clock: Clock; batchSize?: number; maxBatches?: number }) {}

  /** Returns how many challenges were deleted. */
  async execute(): Promise<number> {
    const batchSize = this.deps.batchSize ?? 5_000;
    const maxBatches = this.deps.maxBatches ?? 200;
    const cutoff = this.deps.clock.now();
    let total = 0;
    for (let batch = 0; batch < maxBatches; batch += 1) {
      const deleted = await this.deps.challenges.pruneExpiredBefore(cutoff, batchSize);
      total += deleted;
      if (deleted < batchSize) break;
    }
    return total;
  }
}
