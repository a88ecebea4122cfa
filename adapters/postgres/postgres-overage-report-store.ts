import type { DueOverageReport, OverageReportStore } from '../../core/ai/overage-report.port';
import { count } from './ai-rows';
import type { Database } from './database';
import { LeasedOutbox } from './leased-outbox';

interface ClaimedRow {
  usage_id: number;
  organization_id: number;
  /** int8: text from the driver. */
  tokens: string | number;
  occurred_at: string | Date;
  attempts: number;
}

/** `ai_overage_report`, delivered like `email_outbox` (see LeasedOutbox). */
export class PostgresOverageReportStore implements OverageReportStore {
  private readonly outbox: LeasedOutbox<ClaimedRow>;

  constructor(database: Database) {
    this.outbox = new LeasedOutbox(database, {
      table: 'ai_overage_report',
      key: 'usage_id',
      returning: ['usage_id', 'organization_id', 'tokens', 'occurred_at', 'attempts'],
    });
  }

  async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<DueOverageReport[]> {
    const rows = await this.outbox.claimDue(now, leaseUntil, limit);
    return rows.map((row) => ({
      usageId: row.usage_id,
      organizationId: row.organization_id,
      tokens: count(row.tokens),
      occurredAt: new Date(row.occurred_at),
      attempts: row.attempts,
    }));
  }

  markSent(usageId: number, at: Date): Promise<void> {
    return this.outbox.markSent(usageId, at);
  }

  scheduleRetry(usageId: number, nextAttemptAt: Date, error: string): Promise<void> {
    return this.outbox.scheduleRetry(usageId, nextAttemptAt, error);
  }

  markDead(usageId: number, error: string): Promise<void> {
    return this.outbox.markDead(usageId, error);
  }
}
