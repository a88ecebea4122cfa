import type { ClaimedEmail, OutboxDeliveryStore } from '../../core/email/outbox-delivery.port';
import type { Selectable } from 'kysely';
import type { Database } from './database';
import { LeasedOutbox } from './leased-outbox';
import type { Tables } from './schema/tables';

/** The columns a claim returns. */
const CLAIMED = ['id', 'idempotency_key', 'recipient', 'subject', 'text_body', 'html_body', 'tag', 'attempts'] as const;
type OutboxRow = Pick<Selectable<Tables['email_outbox']>, (typeof CLAIMED)[number]>;

// Bounded, oldest first along the sent_at index; SKIP LOCKED lets two prunes share the work.
const PRUNE_SENT = `delete from email_outbox where id = any(array(
   select id from email_outbox where status = 'sent' and sent_at < $1 order by sent_at limit $2 for update skip locked))`;

/**
 * `email_outbox`, claimed and moved by LeasedOutbox. Sent or given up, an email's bodies go with
 * the same write: they hold live token links, and nobody needs them once the provider has it.
 */
export class PostgresOutboxDeliveryStore extends LeasedOutbox<OutboxRow, ClaimedEmail> implements OutboxDeliveryStore {
  constructor(database: Database) {
    super(database, {
      table: 'email_outbox',
      key: 'id',
      returning: CLAIMED,
      onFinish: "text_body = '', html_body = ''",
      itemOf: (row) => ({
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
      }),
    });
  }

  async pruneSentBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.database.run(PRUNE_SENT, [cutoff, Math.max(0, batchSize)]);
  }
}
