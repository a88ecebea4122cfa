import type { TopUser, UsageLog } from '../../core/ai/usage-log.port';
import type { UsageRecord } from '../../core/ai/usage-record';
import type { Period } from '../../core/plans/usage-period';
import type { ListPosition, ListWindow } from '../../core/shared/list-page';
import type { Row } from '../postgres/schema/tables';
import { toUsageRecord } from '../postgres/ai-rows';
import { aiTables, type AiTables } from './in-memory-ai-tables';
import type { InMemoryStore } from './in-memory-store';

const newestFirst = (a: ListPosition, b: ListPosition) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;
// Newest first: "after" a position means older than it.
const olderThan = (item: ListPosition, position: ListPosition) =>
  item.createdAt.getTime() < position.createdAt.getTime() || (item.createdAt.getTime() === position.createdAt.getTime() && item.id < position.id);
const tokensOf = (row: Row<'llm_usage_log'>) => row.input_tokens + row.output_tokens;

/** Reads of the usage log in the shared store, in the orders the SQL indexes give. */
export class InMemoryUsageLog implements UsageLog {
  private readonly tables: AiTables;

  constructor(private readonly store: InMemoryStore) {
    this.tables = aiTables(store);
  }

  list(organizationId: number, userId: number | null, window: ListWindow): Promise<UsageRecord[]> {
    return this.store.unitOfWork.exclusive(() =>
      [...this.tables.usageLog.values()]
        .map(toUsageRecord)
        .filter((record) => record.organizationId === organizationId && (userId === null || record.userId === userId))
        .filter((record) => !window.after || olderThan(record, window.after))
        .sort(newestFirst)
        .slice(0, window.limit),
    );
  }

  userTokens(organizationId: number, userId: number, period: Period): Promise<number> {
    return this.store.unitOfWork.exclusive(() =>
      this.inPeriod(organizationId, period)
        .filter((row) => row.user_id === userId)
        .reduce((sum, row) => sum + tokensOf(row), 0),
    );
  }

  topUsers(organizationId: number, period: Period, limit: number): Promise<TopUser[]> {
    return this.store.unitOfWork.exclusive(() => {
      const totals = new Map<number, number>();
      for (const row of this.inPeriod(organizationId, period)) {
        if (row.user_id !== null) totals.set(row.user_id, (totals.get(row.user_id) ?? 0) + tokensOf(row));
      }
      return [...totals]
        .flatMap(([userId, tokens]) => {
          const user = this.store.users.get(userId);
          return user ? [{ userId, email: user.email, tokens }] : [];
        })
        .sort((a, b) => b.tokens - a.tokens || a.userId - b.userId)
        .slice(0, limit);
    });
  }

  private inPeriod(organizationId: number, period: Period): Row<'llm_usage_log'>[] {
    const [start, end] = [period.start.getTime(), period.end.getTime()];
    return [...this.tables.usageLog.values()].filter((row) => {
      const at = new Date(row.created_at).getTime();
      return row.organization_id === organizationId && at >= start && at < end;
    });
  }
}
