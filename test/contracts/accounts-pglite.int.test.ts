import { afterAll, beforeAll, describe } from 'vitest';
import { createTestPglite, type TestPglite } from '../support/postgres';
import { FakeClock } from '../support/fake-clock';
import { describeAccountsOnPostgres } from './accounts-postgres-harness';

// PGlite runs in this process: nothing to reach, nothing to skip.
describe('accounts adapters on embedded PostgreSQL (PGlite)', () => {
  // Every bookkeeping stamp comes from this clock, so the contracts can assert it.
  const clock = new FakeClock();
  let testDatabase: TestPglite;
  beforeAll(async () => {
    testDatabase = await createTestPglite(undefined, clock);
  });
  afterAll(() => testDatabase?.close());

  describeAccountsOnPostgres('pglite', () => testDatabase.database, clock);
});
