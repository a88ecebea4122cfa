import type { ClaimedEmail, OutboxDeliveryStore } from '../../core/email/outbox-delivery.port';
import { keptDeliveryError } from '../../core/shared/delivery-error';
import type { Selectable } from 'kysely';
import type { Database } from './database';
import type { Tables } from './schema/tables';

/** The columns CLAIM_DUE returns. */
type OutboxRow = Pick<
  Selectable<Tables['email_outbox']>,
  'id' | 'idempotency_key' | 'recipient' | 'subject' | 'text_body' | 'html_body' | 'tag' | 'attempts'
>;

// Bounded, oldest first along the sent_at index; SKIP LOCKED lets two prunes share the work.
const PRUNE_SENT = `delete from email_outbox where id = any(array(
   select id from email_outbox where status = 'sent' and sent_at < $1 order by sent_at limit $2 for update skip locked))`;

// UPDATE … RETURNING has no order; `due_at` (the pre-claim next_attempt_at) restores it.
const CLAIM_DUE = `with due as (
     select id, next_attempt_at as due_at from email_outbox
      where status in ('pending', 'sending') and next_attempt_at <= $1
      order by next_attempt_at, id
      limit $2 for update skip locked),
   claimed as (
     update email_outbox o set status = 'sending', attempts = o.attempts + 1, next_attempt_at = $3
       from due where o.id = due.id
     returning o.id, o.idempotency_key, o.recipient, o.subject, o.text_body, o.html_body, o.tag, o.attempts, due.due_at)
   select * from claimed order by due_at, id`;

/**
 * Claims with `FOR UPDATE SKIP LOCKED`, so any number of senders can poll one table safely.
 * A leased row is `sending` with `next_attempt_at` = the lease end, so one index serves both.
 */
export class PostgresOutboxDeliveryStore implements OutboxDeliveryStore {
  constructor(private readonly database: Database) {}

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedEmail[]> {
    const rows = await this.database.select<OutboxRow>(CLAIM_DUE, [now, limit, leaseUntil]);
    return rows.map((row) => ({
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
    await this.database.db
      .updateTable('email_outbox')
      // The bodies hold live token links: gone with the same write that records the send.
      .set({ status: 'sent', sent_at: at, last_error: null, text_body: '', html_body: '' })
      .where('id', '=', id)
      .execute();
  }

  // Both only move a `sending` row: a sender whose lease ran out, reporting late, must not
  // reopen an email that another sender has since sent (that would send it again).
  async scheduleRetry(id: number, nextAttemptAt: Date, error: string): Promise<void> {
    await this.database.db
      .updateTable('email_outbox')
      .set({ status: 'pending', next_attempt_at: nextAttemptAt, last_error: keptDeliveryError(error) })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .execute();
  }

  async markDead(id: number, error: string): Promise<void> {
    await this.database.db
      .updateTable('email_outbox')
      .set({ status: 'dead', last_error: keptDeliveryError(error), text_body: '', html_body: '' })
      .where('id', '=', id)
      .where('status', '=', 'sending')
      .execute();
  }

  async pruneSentBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.database.run(PRUNE_SENT, [cutoff, Math.max(0, batchSize)]);
  }
}
