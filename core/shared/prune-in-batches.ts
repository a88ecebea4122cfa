/** Rows per delete statement: each batch is its own short transaction. */
export const PRUNE_BATCH_SIZE = 5_000;
/** Upper bound on batches per run; whatever is left waits for the next run. */
export const PRUNE_MAX_BATCHES = 200;

/**
 * Deletes what expired before `cutoff` in bounded batches, until a batch comes back short or the
 * run's bound is reached. Idempotent and safe to cut short. Returns how many rows were deleted.
 */
export async function pruneInBatches(prune: (cutoff: Date, batchSize: number) => Promise<number>, cutoff: Date): Promise<number> {
  let total = 0;
  for (let batch = 0; batch < PRUNE_MAX_BATCHES; batch += 1) {
    const deleted = await prune(cutoff, PRUNE_BATCH_SIZE);
    total += deleted;
    if (deleted < PRUNE_BATCH_SIZE) break;
  }
  return total;
}
