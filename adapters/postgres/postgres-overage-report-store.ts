import type { DueOverageReport } from '../../core/ai/overage-report.port';
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
export class PostgresOverageReportStore extends LeasedOutbox<ClaimedRow, DueOverageReport> {
  constructor(database: Database) {
    super(database, {
      table: 'ai_overage_report',
      key: 'usage_id',
      returning: ['usage_id', 'organization_id', 'tokens', 'occurred_at', 'attempts'],
      itemOf: (row) => ({
        usageId: row.usage_id,
        organizationId: row.organization_id,
        tokens: count(row.tokens),
        occurredAt: new Date(row.occurred_at),
        attempts: row.attempts,
      }),
    });
  }
}
