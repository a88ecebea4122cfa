import { afterAll, beforeAll, describe } from 'vitest';
import { createTestPglite, type TestPglite } from '../support/postgres';
import { FakeClock } from '../support/fake-clock';
import { postgresAuditLog } from './audit-log-adapters';
import { describeAuditLogContract } from './audit-log.contract';

// PGlite runs in this process: nothing to reach, nothing to skip.
describe('audit log adapter on embedded PostgreSQL (PGlite)', () => {
  const clock = new FakeClock();
  let testDatabase: TestPglite;

  beforeAll(async () => {
    testDatabase = await createTestPglite(undefined, clock);
  });

  afterAll(async () => {
    await testDatabase?.close();
  });

  describeAuditLogContract('pglite', () => postgresAuditLog(testDatabase.database, clock));
});
