import { afterAll, beforeAll, describe } from 'vitest';
import { createTestPglite, type TestPglite } from '../support/postgres';
import { postgresApiKeyRepository } from './api-keys-adapters';
import { describeApiKeyRepositoryContract } from './api-key-repository.contract';

// PGlite runs in this process: nothing to reach, nothing to skip.
describe('API key adapters on embedded PostgreSQL (PGlite)', () => {
  let testDatabase: TestPglite;

  beforeAll(async () => {
    testDatabase = await createTestPglite();
  });

  afterAll(async () => {
    await testDatabase?.close();
  });

  describeApiKeyRepositoryContract('pglite', () => postgresApiKeyRepository(testDatabase.database));
});
