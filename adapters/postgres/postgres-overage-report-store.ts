import type { DueOverageReport, OverageReportStore } from '../../core/ai/overage-report.port';
import { keptDeliveryError } from '../../core/shared/delivery-error';
import type { Database } from './database';

interface ClaimedRow {
  usage_id: number;
  organization_id: number;
  tokens: number;
  occurred_at: string | Date;
  attempts: number;
}

// The email outbox's claim: a leased row is `sending` with `next_attempt_at` = the lease end, so
// one index serves both; SKIP LOCKED lets any number of workers poll; RETURNING has no order, so
// `due_at` restores it.
const CLAIM_DUE = `with due as (
     select usage_id, next_attempt_at as due_at from ai_overage_report
      where status in ('pending', 'sending') and next_attempt_at <= $1
      order by next_attempt_at, usage_id
      limit $2 for update skip locked),
   claimed as (
     update ai_overage_report r set status = 'sending', attempts = r.attempts + 1, next_attempt_at = $3
       from due where r.usage_id = due.usage_id
     returning r.usage_id, r.organization_id, r.tokens, r.occurred_at, r.attempts, due.due_at)
   select * from claimed order by due_at, usage_id`;

/** `ai_overage_report`, delivered like `email_outbox` (see PostgresOutboxDeliveryStore). */
export class PostgresOverageReportStore implements OverageReportStore {
  constructor(private readonly database: Database) {}

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<DueOverageReport[]> {
    const rows = await this.database.select<ClaimedRow>(CLAIM_DUE, [now, limit, leaseUntil]);
    return rows.map((row) => ({
      usageId: row.usage_id,
      organizationId: row.organization_id,
      tokens: row.tokens,
      occurredAt: new Date(row.occurred_at),
      attempts: row.attempts,
    }));
  }

  async markSent(usageId: number, at: Date): Promise<void> {
    await this.database.db.updateTable('ai_overage_report').set({ status: 'sent', sent_at: at, last_error: null }).where('usage_id', '=', usageId).execute();
  }

  // Both only move a `sending` row: a worker whose lease ran out must not reopen a report another
  // worker has since delivered.
  async scheduleRetry(usageId: number, nextAttemptAt: Date, error: string): Promise<void> {
    await this.database.db
      .updateTable('ai_overage_report')
      .set({ status: 'pending', next_attempt_at: nextAttemptAt, last_error: keptDeliveryError(error) })
      .where('usage_id', '=', usageId)
      .where('status', '=', 'sending')
      .execute();
  }

  async markDead(usageId: number, error: string): Promise<void> {
    await this.database.db
      .updateTable('ai_overage_report')
      .set({ status: 'dead', last_error: keptDeliveryError(error) })
      .where('usage_id', '=', usageId)
      .where('status', '=', 'sending')
      .execute();
  }
}
