import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../postgres/database';
import { openOrm } from '../postgres/orm';
import { PostgresJobRunLedger } from '../postgres/postgres-job-run-ledger';
import { SystemClock } from '../system/system-clock';
import type { Logger } from '../../core/shared/logger.port';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../../test/support/postgres';
import { describeJobRunLedgerContract } from '../../test/contracts/job-run-ledger.contract';
import { InProcessScheduler } from './in-process-scheduler';

// Under CI=true an unreachable server throws here and fails the file instead of skipping it.
const postgres = await requirePostgres();

const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

describe.skipIf(!postgres)('in-process scheduling on PostgreSQL', () => {
  let testDatabase: TestDatabase;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
  });

  afterAll(async () => {
    await testDatabase?.drop();
  });

  describeJobRunLedgerContract('postgres', async () => {
    await testDatabase.database.run('truncate table job_run', []);
    return new PostgresJobRunLedger(testDatabase.database);
  });

  it('two instances on one database run a job once per period in total, not twice', async () => {
    await testDatabase.database.run('truncate table job_run', []);
    // The second instance has its own connection pool, as a second process would.
    const second = new Database(await openOrm({ clientUrl: testDatabase.url, poolMax: 2 }), new SystemClock());
    const PERIOD = 200;
    const runs: { instance: string; period: number }[] = [];
    const instances = [testDatabase.database, second].map((database, index) => {
      const scheduler = new InProcessScheduler({ ledger: new PostgresJobRunLedger(database), clock: new SystemClock(), logger: silent });
      const job = {
        name: 'count',
        everyMs: PERIOD,
        run: async () => {
          runs.push({ instance: `#${index}`, period: Math.floor(Date.now() / PERIOD) });
        },
      };
      return { scheduler, job };
    });
    try {
      const startedAt = Date.now();
      await Promise.all(instances.map(({ scheduler, job }) => scheduler.start([job])));
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      await Promise.all(instances.map(({ scheduler }) => scheduler.stop()));
      const periods = Math.floor((Date.now() - startedAt) / PERIOD);

      const distinct = new Set(runs.map((run) => run.period));
      expect(distinct.size).toBe(runs.length);
      expect(runs.length).toBeGreaterThanOrEqual(periods - 1);
      expect(runs.length).toBeLessThanOrEqual(periods + 1);
      const [row] = await testDatabase.database.select<{ period_start: string | Date }>('select period_start from job_run where name = $1', ['count']);
      expect(row && Math.floor(new Date(row.period_start).getTime() / PERIOD)).toBe(runs.at(-1)?.period);
    } finally {
      await Promise.all(instances.map(({ scheduler }) => scheduler.stop()));
      await second.close();
    }
  });
});
