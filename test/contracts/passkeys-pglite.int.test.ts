import { afterAll, beforeAll, describe } from 'vitest';
import { createTestPglite, type TestPglite } from '../support/postgres';
import { postgresPasskeyStores } from './passkeys-adapters';
import { describePasskeyStoresContract } from './passkey-stores.contract';

// PGlite runs in this process: nothing to reach, nothing to skip.
describe('passkey adapters on embedded PostgreSQL (PGlite)', () => {
  let testDatabase: TestPglite;

  beforeAll(async () => {
    testDatabase = await createTestPglite();
  });

  afterAll(async () => {
    await testDatabase?.close();
  });

  describePasskeyStoresContract('pglite', () => postgresPasskeyStores(testDatabase.database));
});
