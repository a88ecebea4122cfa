import { InMemoryAiCapacity } from '../../adapters/in-memory/in-memory-ai-capacity';
import { aiTables } from '../../adapters/in-memory/in-memory-ai-tables';
import { InMemoryCreditLedger } from '../../adapters/in-memory/in-memory-credit-ledger';
import { InMemoryOverageReportStore } from '../../adapters/in-memory/in-memory-overage-report-store';
import { InMemoryStore } from '../../adapters/in-memory/in-memory-store';
import { InMemoryUsageLog } from '../../adapters/in-memory/in-memory-usage-log';
import { FakeClock } from '../support/fake-clock';
import { aiCapacityContract } from './ai-capacity.contract';
import { inMemoryTenants } from './tenants';

aiCapacityContract('in-memory', async () => {
  const store = new InMemoryStore({ clock: new FakeClock() });
  const tables = aiTables(store);
  const tenants = inMemoryTenants(store);
  const byOrganization = <Row extends { organization_id: number }>(rows: Iterable<Row>, organizationId: number) =>
    [...rows].filter((row) => row.organization_id === organizationId);
  return {
    capacity: new InMemoryAiCapacity(store),
    ledger: new InMemoryCreditLedger(store),
    usageLog: new InMemoryUsageLog(store),
    overageReports: new InMemoryOverageReportStore(store),
    ...tenants,
    reservationCount: async (organizationId) => byOrganization(tables.reservations.values(), organizationId).length,
    async overageReport(usageId) {
      const row = tables.overageReports.get(usageId);
      return row
        ? { status: row.status, attempts: row.attempts, nextAttemptAt: new Date(row.next_attempt_at), lastError: row.last_error, sentAt: row.sent_at === null ? null : new Date(row.sent_at) }
        : null;
    },
    aiRowCount: async (organizationId) =>
      Object.values(tables).reduce((sum, table: Map<unknown, { organization_id: number }>) => sum + byOrganization(table.values(), organizationId).length, 0),
    clearOverageReports: async () => tables.overageReports.clear(),
    close: async () => undefined,
  };
});
