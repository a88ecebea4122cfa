import { afterAll, beforeAll, describe } from 'vitest';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { describeAccountsOnPostgres } from './accounts-postgres-harness';

// Under CI=true an unreachable server throws here and fails the file instead of skipping it.
const postgres = await requirePostgres();

describe.skipIf(!postgres)('accounts adapters on PostgreSQL', () => {
  let testDatabase: TestDatabase;
  beforeAll(async () => {
    testDatabase = await createTestDatabase();
  });
  afterAll(() => testDatabase?.drop());

  describeAccountsOnPostgres('postgres', () => testDatabase.database);
});
