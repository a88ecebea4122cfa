import { randomUUID } from 'node:crypto';
import type { EmailOutbox } from '../../core/email/email-outbox.port';
import type { EmailMessage } from '../../core/email/mailer.port';
import type { Database } from './database';

/** Writes through `database.db`, so an enqueue inside a UnitOfWork commits with the change that caused it. */
export class PostgresEmailOutbox implements EmailOutbox {
  constructor(private readonly database: Database) {}

  async enqueue(message: Omit<EmailMessage, 'idempotencyKey'>): Promise<void> {
    const now = this.database.now();
    await this.database.db
      .insertInto('email_outbox')
      .values({
        idempotency_key: randomUUID(),
        recipient: message.to,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html,
        tag: message.tag ?? null,
        status: 'pending',
        attempts: 0,
        // Due at once: the sender picks it up on its next poll.
        next_attempt_at: now,
        created_at: now,
      })
      .execute();
  }
}
