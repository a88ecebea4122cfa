import { afterAll, beforeAll, describe } from 'vitest';
import { postgresAuditWorld } from '../builders/audited-flows';
import { FakeClock } from '../support/fake-clock';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { describeAuditedFlowTransactions } from './audited-flows.contract';
import { REFUSE_FUNCTION, triggerFaults } from './audited-flows-triggers';

// Under CI=true an unreachable server throws here and fails the file instead of skipping it.
const postgres = await requirePostgres();

describe.skipIf(!postgres)('audited flows on PostgreSQL', () => {
  const clock = new FakeClock();
  let testDatabase: TestDatabase;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(clock);
    await testDatabase.database.run(REFUSE_FUNCTION, []);
  });
  afterAll(() => testDatabase?.drop());

  describeAuditedFlowTransactions('postgres', async () => ({
    world: postgresAuditWorld(testDatabase.database, clock),
    faults: triggerFaults(testDatabase.database),
    memory: false,
  }));
});
