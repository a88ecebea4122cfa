import type { ClaimedEmail, OutboxDeliveryStore } from '../../core/email/outbox-delivery.port';
import { messageOf } from './in-memory-email-outbox';
import { InMemoryLeasedOutbox } from './in-memory-leased-outbox';
import type { EmailOutboxRow, InMemoryStore } from './in-memory-store';

/**
 * The delivery side of the outbox, over the same `email_outbox` rows InMemoryEmailOutbox
 * enqueues, claimed and moved by InMemoryLeasedOutbox. Sent or given up, an email's bodies go
 * with the same write: they hold live token links.
 */
export class InMemoryOutboxDeliveryStore extends InMemoryLeasedOutbox<EmailOutboxRow, ClaimedEmail> implements OutboxDeliveryStore {
  constructor(private readonly memory: InMemoryStore) {
    super(memory, {
      rows: memory.emailOutbox,
      columns: { key: 'id', nextAttemptAt: 'next_attempt_at', sentAt: 'sent_at', lastError: 'last_error' },
      itemOf: (row) => ({ id: row.id, attempts: row.attempts, message: messageOf(row) }),
      onFinish: (row) => {
        row.text_body = '';
        row.html_body = '';
      },
    });
  }

  pruneSentBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.memory.unitOfWork.exclusive(() => {
      const old = [...this.memory.emailOutbox.values()]
        .filter((row) => row.status === 'sent' && row.sent_at !== null && row.sent_at.getTime() < cutoff.getTime())
        .sort((a, b) => a.sent_at!.getTime() - b.sent_at!.getTime() || a.id - b.id)
        .slice(0, Math.max(0, batchSize));
      for (const row of old) this.memory.emailOutbox.delete(row.id);
      return old.length;
    });
  }

  /** A copy of an email's row, as a select on the SQL table reads it; undefined for an unknown id. */
  inspect(id: number): Promise<EmailOutboxRow | undefined> {
    return this.memory.unitOfWork.exclusive(() => {
      const row = this.memory.emailOutbox.get(id);
      return row && structuredClone(row);
    });
  }
}
