import type { DueOverageReport } from '../../core/ai/overage-report.port';
import type { Row } from '../postgres/schema/tables';
import { aiTables } from './in-memory-ai-tables';
import { InMemoryLeasedOutbox } from './in-memory-leased-outbox';
import type { InMemoryStore } from './in-memory-store';

/** `ai_overage_report` in the shared store, claimed and moved by InMemoryLeasedOutbox. */
export class InMemoryOverageReportStore extends InMemoryLeasedOutbox<Row<'ai_overage_report'>, DueOverageReport> {
  constructor(store: InMemoryStore) {
    super(store, {
      rows: aiTables(store).overageReports,
      columns: { key: 'usage_id', nextAttemptAt: 'next_attempt_at', sentAt: 'sent_at', lastError: 'last_error' },
      itemOf: (row) => ({ usageId: row.usage_id, organizationId: row.organization_id, tokens: row.tokens, occurredAt: new Date(row.occurred_at), attempts: row.attempts }),
    });
  }
}
