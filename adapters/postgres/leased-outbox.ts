import { keptDeliveryError } from '../../core/shared/delivery-error';
import type { LeasedOutboxStore } from '../../core/shared/leased-outbox.port';
import type { Database } from './database';

/** An outbox table: `status`, `attempts`, `next_attempt_at`, `sent_at` and `last_error`, keyed by `key`. */
export interface LeasedOutboxTable<Row, Item> {
  table: 'email_outbox' | 'ai_overage_report';
  key: 'id' | 'usage_id';
  /** The columns a claim returns. */
  returning: readonly string[];
  /** What a claim returns for a row. */
  itemOf(row: Row): Item;
  /** Assignments made whenever a row is finished, sent or dead (`text_body = ''` …). */
  onFinish?: string;
}

/**
 * The delivery state machine both outboxes share (`email_outbox`, `ai_overage_report`).
 *
 * A claim is a lease: the row becomes `sending` with `next_attempt_at` = the lease end, so one
 * index serves due rows and expired leases alike, and a sender that dies leaves its rows to come
 * back. `FOR UPDATE SKIP LOCKED` lets any number of senders poll one table; UPDATE … RETURNING
 * has no order, so `due_at` (the pre-claim `next_attempt_at`) restores it. A retry or a give-up
 * only moves a row still `sending`: a sender whose lease ran out, reporting late, must not reopen
 * a row another sender has since delivered (that would deliver it twice).
 */
export class LeasedOutbox<Row, Item> implements LeasedOutboxStore<Item> {
  private readonly claimDueSql: string;
  private readonly markSentSql: string;
  private readonly scheduleRetrySql: string;
  private readonly markDeadSql: string;
  private readonly itemOf: (row: Row) => Item;

  constructor(
    protected readonly database: Database,
    { table, key, returning, itemOf, onFinish }: LeasedOutboxTable<Row, Item>,
  ) {
    this.itemOf = itemOf;
    const finish = onFinish ? `, ${onFinish}` : '';
    this.claimDueSql = `with due as (
         select ${key}, next_attempt_at as due_at from ${table}
          where status in ('pending', 'sending') and next_attempt_at <= $1
          order by next_attempt_at, ${key}
          limit $2 for update skip locked),
       claimed as (
         update ${table} o set status = 'sending', attempts = o.attempts + 1, next_attempt_at = $3
           from due where o.${key} = due.${key}
         returning ${returning.map((column) => `o.${column}`).join(', ')}, due.due_at)
       select * from claimed order by due_at, ${key}`;
    this.markSentSql = `update ${table} set status = 'sent', sent_at = $2, last_error = null${finish} where ${key} = $1`;
    this.scheduleRetrySql = `update ${table} set status = 'pending', next_attempt_at = $2, last_error = $3 where ${key} = $1 and status = 'sending'`;
    this.markDeadSql = `update ${table} set status = 'dead', last_error = $2${finish} where ${key} = $1 and status = 'sending'`;
  }

  /** Claims up to `limit` due rows (pending, or sending with an expired lease), oldest first. */
  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<Item[]> {
    const rows = await this.database.select<Row>(this.claimDueSql, [now, limit, leaseUntil]);
    return rows.map(this.itemOf);
  }

  async markSent(id: number, at: Date): Promise<void> {
    await this.database.run(this.markSentSql, [id, at]);
  }

  async scheduleRetry(id: number, nextAttemptAt: Date, error: string): Promise<void> {
    await this.database.run(this.scheduleRetrySql, [id, nextAttemptAt, keptDeliveryError(error)]);
  }

  async markDead(id: number, error: string): Promise<void> {
    await this.database.run(this.markDeadSql, [id, keptDeliveryError(error)]);
  }
}
