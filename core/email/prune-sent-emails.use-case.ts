import type { EmailDeps } from './email-deps';

const DAY_MS = 86_400_000;

/**
 * Deletes the outbox rows of emails sent more than `retentionDays` ago, in bounded batches.
 * Dead-lettered emails stay for inspection (without bodies). Idempotent and safe to cut short.
 */
export class PruneSentEmails {
  constructor(private readonly deps: Pick<EmailDeps, 'store' | 'clock' | 'settings'>) {}

  /** Returns how many emails were deleted. */
  async execute(): Promise<number> {
    const batchSize = this.deps.settings.batchSize ?? 1_000;
    const maxBatches = this.deps.settings.maxBatches ?? 1_000;
    const cutoff = new Date(this.deps.clock.now().getTime() - this.deps.settings.retentionDays * DAY_MS);
    let total = 0;
    for (let batch = 0; batch < maxBatches; batch += 1) {
      const deleted = await this.deps.store.pruneSentBefore(cutoff, batchSize);
      total += deleted;
      if (deleted < batchSize) break;
    }
    return total;
  }
}
