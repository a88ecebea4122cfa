import type { ClaimedEmail, OutboxDeliveryStore } from '../../core/email/outbox-delivery.port';
import { keptDeliveryError } from '../../core/shared/delivery-error';
import { messageOf } from './in-memory-email-outbox';
import type { EmailOutboxRow, InMemoryStore } from './in-memory-store';

/** Sent or given up: the bodies (live token links) go with the same write. */
const eraseBodies = (row: EmailOutboxRow): void => {
  row.text = '';
  row.html = '';
};

/**
 * The delivery side of the outbox, over the same `email_outbox` rows InMemoryEmailOutbox
 * enqueues. Each operation runs under the store's lock, so concurrent claimers never receive the
 * same email.
 */
export class InMemoryOutboxDeliveryStore implements OutboxDeliveryStore {
  constructor(private readonly store: InMemoryStore) {}

  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedEmail[]> {
    return this.store.unitOfWork.exclusive(() =>
      [...this.store.emailOutbox.values()]
        .filter((row) => (row.status === 'pending' || row.status === 'sending') && row.nextAttemptAt <= now)
        .sort((a, b) => a.nextAttemptAt.getTime() - b.nextAttemptAt.getTime() || a.id - b.id)
        .slice(0, Math.max(0, limit))
        .map((row) => {
          row.status = 'sending';
          row.attempts += 1;
          row.nextAttemptAt = new Date(leaseUntil);
          return { id: row.id, attempts: row.attempts, message: messageOf(row) };
        }),
    );
  }

  markSent(id: number, at: Date): Promise<void> {
    return this.update(id, (row) => {
      row.status = 'sent';
      row.sentAt = new Date(at);
      row.lastError = null;
      eraseBodies(row);
    });
  }

  pruneSentBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.store.unitOfWork.exclusive(() => {
      const old = [...this.store.emailOutbox.values()]
        .filter((row) => row.status === 'sent' && row.sentAt !== null && row.sentAt.getTime() < cutoff.getTime())
        .sort((a, b) => a.sentAt!.getTime() - b.sentAt!.getTime() || a.id - b.id)
        .slice(0, Math.max(0, batchSize));
      for (const row of old) this.store.emailOutbox.delete(row.id);
      return old.length;
    });
  }

  // Like the SQL adapter, these only move a `sending` email: a late report from a sender whose
  // lease ran out must not reopen an email another sender has sent since.
  scheduleRetry(id: number, nextAttemptAt: Date, error: string): Promise<void> {
    return this.update(id, (row) => {
      if (row.status !== 'sending') return;
      row.status = 'pending';
      row.nextAttemptAt = new Date(nextAttemptAt);
      row.lastError = keptDeliveryError(error);
    });
  }

  markDead(id: number, error: string): Promise<void> {
    return this.update(id, (row) => {
      if (row.status !== 'sending') return;
      row.status = 'dead';
      row.lastError = keptDeliveryError(error);
      eraseBodies(row);
    });
  }

  /** A copy of an email's row, as a select on the SQL table reads it; undefined for an unknown id. */
  inspect(id: number): Promise<EmailOutboxRow | undefined> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.emailOutbox.get(id);
      return row && structuredClone(row);
    });
  }

  private update(id: number, change: (row: EmailOutboxRow) => void): Promise<void> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.emailOutbox.get(id);
      if (row) change(row);
    });
  }
}
