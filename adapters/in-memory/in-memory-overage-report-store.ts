import type { DueOverageReport, OverageReportStore } from '../../core/ai/overage-report.port';
import { keptDeliveryError } from '../../core/shared/delivery-error';
import { aiTables, type AiTables } from './in-memory-ai-tables';
import type { InMemoryStore } from './in-memory-store';

/** The overage reports in the shared store, claimed and moved as the SQL store does. */
export class InMemoryOverageReportStore implements OverageReportStore {
  private readonly tables: AiTables;

  constructor(private readonly store: InMemoryStore) {
    this.tables = aiTables(store);
  }

  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<DueOverageReport[]> {
    return this.store.unitOfWork.exclusive(() =>
      [...this.tables.overageReports.values()]
        .filter((row) => (row.status === 'pending' || row.status === 'sending') && new Date(row.next_attempt_at).getTime() <= now.getTime())
        .sort((a, b) => new Date(a.next_attempt_at).getTime() - new Date(b.next_attempt_at).getTime() || a.usage_id - b.usage_id)
        .slice(0, limit)
        .map((row) => {
          row.status = 'sending';
          row.attempts += 1;
          row.next_attempt_at = new Date(leaseUntil);
          return { usageId: row.usage_id, organizationId: row.organization_id, tokens: row.tokens, occurredAt: new Date(row.occurred_at), attempts: row.attempts };
        }),
    );
  }

  markSent(usageId: number, at: Date): Promise<void> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.tables.overageReports.get(usageId);
      if (row) Object.assign(row, { status: 'sent', sent_at: new Date(at), last_error: null });
    });
  }

  scheduleRetry(usageId: number, nextAttemptAt: Date, error: string): Promise<void> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.tables.overageReports.get(usageId);
      if (row?.status === 'sending') Object.assign(row, { status: 'pending', next_attempt_at: new Date(nextAttemptAt), last_error: keptDeliveryError(error) });
    });
  }

  markDead(usageId: number, error: string): Promise<void> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.tables.overageReports.get(usageId);
      if (row?.status === 'sending') Object.assign(row, { status: 'dead', last_error: keptDeliveryError(error) });
    });
  }
}
