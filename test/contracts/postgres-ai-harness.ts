import type { Database } from '../../adapters/postgres/database';
import { PostgresAiCapacity } from '../../adapters/postgres/postgres-ai-capacity';
import { PostgresCreditLedger } from '../../adapters/postgres/postgres-credit-ledger';
import { PostgresOverageReportStore } from '../../adapters/postgres/postgres-overage-report-store';
import { PostgresUsageLog } from '../../adapters/postgres/postgres-usage-log';
import type { OverageReportStatus } from '../../core/ai/overage-report.port';
import { postgresTenants } from './tenants';
import type { AiStoresHarness } from './ai-capacity.contract';

const AI_TABLES = ['ai_reservation', 'ai_period_usage', 'ai_credit_account', 'ai_credit_transaction', 'llm_usage_log', 'ai_overage_report'] as const;

/**
 * Moves the id sequences of the AI tables that take a row per copilot call past int4 (2^31 - 1),
 * where a busy deployment's get to: every id the stores hand out, pass back or page by is then
 * one a 32-bit column or parameter could not hold.
 */
export async function aiIdsPastInt4(database: Database): Promise<void> {
  for (const table of ['ai_reservation', 'llm_usage_log', 'ai_credit_transaction']) {
    await database.run(`select setval('${table}_id_seq', 3000000000)`, []);
  }
}

/** The AI stores over a migrated database; `close` is the caller's (drop or close it). */
export function postgresAiHarness(database: Database, close: () => Promise<void>): AiStoresHarness {
  return {
    capacity: new PostgresAiCapacity(database),
    ledger: new PostgresCreditLedger(database),
    usageLog: new PostgresUsageLog(database),
    overageReports: new PostgresOverageReportStore(database),
    ...postgresTenants(database),
    async reservationCount(organizationId) {
      const [row] = await database.select<{ count: string }>('select count(*) as count from ai_reservation where organization_id = $1', [organizationId]);
      return Number(row!.count);
    },
    async overageReport(usageId) {
      const [row] = await database.select<{ status: OverageReportStatus; attempts: number; next_attempt_at: Date; last_error: string | null; sent_at: Date | null }>(
        'select status, attempts, next_attempt_at, last_error, sent_at from ai_overage_report where usage_id = $1',
        [usageId],
      );
      return row
        ? { status: row.status, attempts: row.attempts, nextAttemptAt: new Date(row.next_attempt_at), lastError: row.last_error, sentAt: row.sent_at === null ? null : new Date(row.sent_at) }
        : null;
    },
    async aiRowCount(organizationId) {
      const counts = AI_TABLES.map((table) => `(select count(*) from ${table} where organization_id = $1)`).join(' + ');
      const [row] = await database.select<{ count: string }>(`select ${counts} as count`, [organizationId]);
      return Number(row!.count);
    },
    async clearOverageReports() {
      await database.run('delete from ai_overage_report', []);
    },
    close,
  };
}
