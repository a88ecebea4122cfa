import type { Selectable } from 'kysely';
import type { DueOverageReport } from '../../core/ai/overage-report.port';
import { count } from './ai-rows';
import type { Database } from './database';
import { LeasedOutbox } from './leased-outbox';
import type { Tables } from './schema/tables';

/** The columns a claim returns. */
const CLAIMED = ['usage_id', 'organization_id', 'tokens', 'occurred_at', 'attempts'] as const;
type ClaimedRow = Pick<Selectable<Tables['ai_overage_report']>, (typeof CLAIMED)[number]>;

/** `ai_overage_report`, delivered like `email_outbox` (see LeasedOutbox). */
export class PostgresOverageReportStore extends LeasedOutbox<ClaimedRow, DueOverageReport> {
  constructor(database: Database) {
    super(database, {
      table: 'ai_overage_report',
      key: 'usage_id',
      returning: CLAIMED,
      itemOf: (row) => ({
        usageId: Number(row.usage_id),
        organizationId: row.organization_id,
        tokens: count(row.tokens),
        occurredAt: new Date(row.occurred_at),
        attempts: row.attempts,
      }),
    });
  }
}
