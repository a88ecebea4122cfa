import { afterAll, beforeAll, describe } from 'vitest';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { postgresPasskeyStores } from './passkeys-adapters';
import { describePasskeyStoresContract } from './passkey-stores.contract';

// Under CI=true an unreachable server throws here and fails the file instead of skipping it.
const postgres = await requirePostgres();

describe.skipIf(!postgres)('passkey adapters on PostgreSQL', () => {
  let testDatabase: TestDatabase;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
  });

  afterAll(async () => {
    await testDatabase?.drop();
  });

  describePasskeyStoresContract('postgres', () => postgresPasskeyStores(testDatabase.database));
});
