import { randomUUID } from 'node:crypto';
import type { EmailOutbox } from '../../core/email/email-outbox.port';
import type { EmailMessage } from '../../core/email/mailer.port';
import type { EmailOutboxRow, InMemoryStore } from './in-memory-store';

/** The message a row carries, as the port hands it out. */
export const messageOf = (row: EmailOutboxRow): EmailMessage => ({
  to: row.recipient,
  subject: row.subject,
  text: row.text_body,
  html: row.html_body,
  idempotencyKey: row.idempotency_key,
  ...(row.tag === null ? {} : { tag: row.tag }),
});

export class InMemoryEmailOutbox implements EmailOutbox {
  constructor(private readonly store: InMemoryStore) {}

  async enqueue(message: Omit<EmailMessage, 'idempotencyKey'>): Promise<void> {
    await this.store.unitOfWork.exclusive(() => {
      const now = this.store.now();
      const row: EmailOutboxRow = {
        id: this.store.nextId('email_outbox'),
        idempotency_key: randomUUID(),
        recipient: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html,
        tag: message.tag ?? null,
        status: 'pending',
        attempts: 0,
        // Due at once: the delivery job picks it up on its next poll.
        next_attempt_at: now,
        last_error: null,
        created_at: now,
        sent_at: null,
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
