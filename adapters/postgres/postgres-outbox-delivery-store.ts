import type { ClaimedEmail, OutboxDeliveryStore } from '../../core/email/outbox-delivery.port';
import type { Database } from './database';

interface OutboxRow {
  id: string;
  idempotency_key: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  tag: string | null;
  attempts: number;
}

const MAX_ERROR_LENGTH = 2_000;

/** Claims with `FOR UPDATE SKIP LOCKED`, so any number of senders can poll one table safely. */
export class PostgresOutboxDeliveryStore implements OutboxDeliveryStore {
  constructor(private readonly database: Database) {}

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedEmail[]> {
    const result = await this.database.db.raw<{ rows: OutboxRow[] }>(
      `update email_outbox set status = 'sending', attempts = attempts + 1, next_attempt_at = ?
        where id in (
          select id from email_outbox
           where status in ('pending', 'sending') and next_attempt_at <= ?
           order by next_attempt_at, id
           limit ? for update skip locked)
        returning id, idempotency_key, recipient, subject, text_body, html_body, tag, attempts`,
      [leaseUntil, now, limit],
    );
    return result.rows.map((row) => ({
      id: Number(row.id),
      attempts: row.attempts,
      message: {
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        idempotencyKey: row.idempotency_key,
        ...(row.tag ? { tag: row.tag } : {}),
      },
    }));
  }

  async markSent(id: number, at: Date): Promise<void> {
    await this.database.db('email_outbox').where({ id }).update({ status: 'sent', sent_at: at, last_error: null });
  }

  async scheduleRetry(id: number, nextAttemptAt: Date, error: string): Promise<void> {
    await this.database
      .db('email_outbox')
      .where({ id })
      .update({ status: 'pending', next_attempt_at: nextAttemptAt, last_error: error.slice(0, MAX_ERROR_LENGTH) });
  }

  async markDead(id: number, error: string): Promise<void> {
    await this.database.db('email_outbox').where({ id }).update({ status: 'dead', last_error: error.slice(0, MAX_ERROR_LENGTH) });
  }
}
