import { afterAll, beforeAll, describe } from 'vitest';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { postgresApiKeyRepository } from './api-keys-adapters';
import { describeApiKeyRepositoryContract } from './api-key-repository.contract';

// Under CI=true an unreachable server throws here and fails the file instead of skipping it.
const postgres = await requirePostgres();

describe.skipIf(!postgres)('API key adapters on PostgreSQL', () => {
  let testDatabase: TestDatabase;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
  });

  afterAll(async () => {
    await testDatabase?.drop();
  });

  describeApiKeyRepositoryContract('postgres', () => postgresApiKeyRepository(testDatabase.database));
});
