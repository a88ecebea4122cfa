import { afterAll, beforeAll, describe } from 'vitest';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { FakeClock } from '../support/fake-clock';
import { postgresAuditLog } from './audit-log-adapters';
import { describeAuditLogContract } from './audit-log.contract';

// Under CI=true an unreachable server throws here and fails the file instead of skipping it.
const postgres = await requirePostgres();

describe.skipIf(!postgres)('audit log adapter on PostgreSQL', () => {
  const clock = new FakeClock();
  let testDatabase: TestDatabase;

  beforeAll(async () => {
    testDatabase = await createTestDatabase(clock);
  });

  afterAll(async () => {
    await testDatabase?.drop();
  });

  describeAuditLogContract('postgres', () => postgresAuditLog(testDatabase.database, clock));
});
