import { randomUUID } from 'node:crypto';
import type { EmailOutbox } from '../../core/email/email-outbox.port';
import type { EmailMessage } from '../../core/email/mailer.port';
import type { EmailOutboxRow, InMemoryStore } from './in-memory-store';

export class InMemoryEmailOutbox implements EmailOutbox {
  constructor(private readonly store: InMemoryStore) {}

  async enqueue(message: Omit<EmailMessage, 'idempotencyKey'>): Promise<void> {
    await this.store.unitOfWork.exclusive(() => {
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
        createdAt: this.store.now(),
      };
      this.store.emailOutbox.set(row.id, row);
    });
  }

  /** The messages waiting for delivery, oldest first: what a test (or a demo) inspects. */
  pending(): Promise<EmailMessage[]> {
    return this.store.unitOfWork.exclusive(() =>
      [...this.store.emailOutbox.values()]
        .filter((row) => row.status === 'pending')
        .sort((a, b) => a.id - b.id)
        .map((row) => ({
          to: row.to,
          subject: row.subject,
          text: row.text,
          html: row.html,
          idempotencyKey: row.idempotencyKey,
          ...(row.tag === null ? {} : { tag: row.tag }),
        })),
    );
  }
}
