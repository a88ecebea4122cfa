import { afterAll, beforeAll, describe } from 'vitest';
import { createTestPglite, type TestPglite } from '../support/postgres';
import { postgresIdentity } from './identity-adapters';
import { describeIdentityLinkRepositoryContract } from './identity-link-repository.contract';
import { describeIdpLoginFlowStoreContract } from './idp-login-flow-store.contract';

// PGlite runs in this process: nothing to reach, nothing to skip.
describe('identity adapters on embedded PostgreSQL (PGlite)', () => {
  let testDatabase: TestPglite;

  beforeAll(async () => {
    testDatabase = await createTestPglite();
  });

  afterAll(async () => {
    await testDatabase?.close();
  });

  const setup = () => postgresIdentity(testDatabase.database);

  describeIdentityLinkRepositoryContract('pglite', setup);
  describeIdpLoginFlowStoreContract('pglite', setup);
});
