import { afterAll, beforeAll, describe } from 'vitest';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { FakeClock } from '../support/fake-clock';
import { describeAccountsOnPostgres } from './accounts-postgres-harness';

// Under CI=true an unreachable server throws here and fails the file instead of skipping it.
const postgres = await requirePostgres();

describe.skipIf(!postgres)('accounts adapters on PostgreSQL', () => {
  // Every bookkeeping stamp comes from this clock, so the contracts can assert it.
  const clock = new FakeClock();
  let testDatabase: TestDatabase;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(clock);
  });
  afterAll(() => testDatabase?.drop());

  describeAccountsOnPostgres('postgres', () => testDatabase.database, clock);
});
