import { pruneInBatches } from '../shared/prune-in-batches';
import type { PasskeysDeps } from './passkeys-deps';

/**
 * Deletes passkey challenges nobody answered (they are useless after five minutes), in bounded
 * batches. Idempotent and safe to cut short.
 */
export class PruneExpiredPasskeyChallenges {
  constructor(private readonly deps: Pick<PasskeysDeps, 'challenges' | 'clock'>) {}

  /** Returns how many challenges were deleted. */
  async execute(): Promise<number> {
    return pruneInBatches((cutoff, batchSize) => this.deps.challenges.pruneExpiredBefore(cutoff, batchSize), this.deps.clock.now());
  }
}
