import { afterAll, beforeAll, describe } from 'vitest';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { postgresIdentity } from './identity-adapters';
import { describeIdentityLinkRepositoryContract } from './identity-link-repository.contract';
import { describeIdpLoginFlowStoreContract } from './idp-login-flow-store.contract';

// Under CI=true an unreachable server throws here and fails the file instead of skipping it.
const postgres = await requirePostgres();

describe.skipIf(!postgres)('identity adapters on PostgreSQL', () => {
  let testDatabase: TestDatabase;

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
  });

  afterAll(async () => {
    await testDatabase?.drop();
  });

  const setup = () => postgresIdentity(testDatabase.database);

  describeIdentityLinkRepositoryContract('postgres', setup);
  describeIdpLoginFlowStoreContract('postgres', setup);
});
