import { afterAll, beforeAll, describe } from 'vitest';
import { postgresAuditWorld } from '../builders/audited-flows';
import { FakeClock } from '../support/fake-clock';
import { createTestPglite, type TestPglite } from '../support/postgres';
import { describeAuditedFlowTransactions } from './audited-flows.contract';
import { REFUSE_FUNCTION, triggerFaults } from './audited-flows-triggers';

// PGlite runs in this process: nothing to reach, nothing to skip.
describe('audited flows on embedded PostgreSQL (PGlite)', () => {
  const clock = new FakeClock();
  let testDatabase: TestPglite;
  beforeAll(async () => {
    testDatabase = await createTestPglite(undefined, clock);
    await testDatabase.database.run(REFUSE_FUNCTION, []);
  });
  afterAll(() => testDatabase?.close());

  describeAuditedFlowTransactions('pglite', async () => ({
    world: postgresAuditWorld(testDatabase.database, clock),
    faults: triggerFaults(testDatabase.database),
    memory: false,
  }));
});
