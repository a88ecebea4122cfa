import { afterAll, beforeAll, describe } from 'vitest';
import { createTestPglite, type TestPglite } from '../support/postgres';
import { describeAccountsOnPostgres } from './accounts-postgres-harness';

// PGlite runs in this process: nothing to reach, nothing to skip.
describe('accounts adapters on embedded PostgreSQL (PGlite)', () => {
  let testDatabase: TestPglite;
  beforeAll(async () => {
    testDatabase = await createTestPglite();
  });
  afterAll(() => testDatabase?.close());

  describeAccountsOnPostgres('pglite', () => testDatabase.database);
});
