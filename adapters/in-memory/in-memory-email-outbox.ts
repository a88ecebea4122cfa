import { randomUUID } from 'node:crypto';
import type { EmailOutbox } from '../../core/email/email-outbox.port';
import type { EmailMessage } from '../../core/email/mailer.port';
import type { EmailOutboxRow, InMemoryStore } from './in-memory-store';

/** The message a row carries, as the port hands it out. */
export const messageOf = (row: EmailOutboxRow): EmailMessage => ({
  to: row.to,
  subject: row.subject,
  text: row.text,
  html: row.html,
  idempotencyKey: row.idempotencyKey,
  ...(row.tag === null ? {} : { tag: row.tag }),
});

export class InMemoryEmailOutbox implements EmailOutbox {
  constructor(private readonly store: InMemoryStore) {}

  async enqueue(message: Omit<EmailMessage, 'idempotencyKey'>): Promise<void> {
    await this.store.unitOfWork.exclusive(() => {
      const now = this.store.now();
      const row: EmailOutboxRow = {
        id: this.store.nextId('email_outbox'),
        idempotencyKey: randomUUID(),
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        tag: message.tag ?? null,
        status: 'pending',
        attempts: 0,
        // Due at once: the delivery job picks it up on its next poll.
        nextAttemptAt: now,
        lastError: null,
        createdAt: now,
        sentAt: null,
      };
      this.store.emailOutbox.set(row.id, row);
    });
  }

  /** The messages still `pending`, oldest first: what a test (or a demo) inspects. */
  pending(): Promise<EmailMessage[]> {
    return this.store.unitOfWork.exclusive(() =>
      [...this.store.emailOutbox.values()]
        .filter((row) => row.status === 'pending')
        .sort((a, b) => a.id - b.id)
        .map(messageOf),
    );
  }
}
