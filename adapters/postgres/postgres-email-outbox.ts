import { randomUUID } from 'node:crypto';
import type { EmailOutbox } from '../../core/email/email-outbox.port';
import type { EmailMessage } from '../../core/email/mailer.port';
import type { Database } from './database';

/** Writes through `database.db`, so an enqueue inside a UnitOfWork commits with the change that caused it. */
export class PostgresEmailOutbox implements EmailOutbox {
  constructor(private readonly database: Database) {}

  async enqueue(message: Omit<EmailMessage, 'idempotencyKey'>): Promise<void> {
    await this.database.db('email_outbox').insert({
      idempotency_key: randomUUID(),
      recipient: message.to,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html,
      tag: message.tag ?? null,
    });
  }
}
