import { pruneInBatches } from '../shared/prune-in-batches';
import type { MfaDeps } from './mfa-deps';

/**
 * Deletes sign-in challenges that expired (they are useless after five minutes), in bounded
 * batches. Idempotent and safe to cut short.
 */
export class PruneExpiredChallenges {
  constructor(private readonly deps: Pick<MfaDeps, 'challenges' | 'clock'>) {}

  /** Returns how many challenges were deleted. */
  async execute(): Promise<number> {
    return pruneInBatches((cutoff, batchSize) => this.deps.challenges.pruneExpiredBefore(cutoff, batchSize), this.deps.clock.now());
  }
}
