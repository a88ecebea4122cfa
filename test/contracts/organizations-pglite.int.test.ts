import { afterAll, beforeAll, describe } from 'vitest';
import { createTestPglite, type TestPglite } from '../support/postgres';
import { describeInvitationRepositoryContract } from './invitation-repository.contract';
import { postgresOrganizationsHarness } from './postgres-organizations-harness';

// PGlite runs in this process: nothing to reach, nothing to skip.
describe('organizations adapters on embedded PostgreSQL (PGlite)', () => {
  let testDatabase: TestPglite;

  beforeAll(async () => {
    testDatabase = await createTestPglite();
  });

  afterAll(async () => {
    await testDatabase?.close();
  });

  describeInvitationRepositoryContract('pglite', () => postgresOrganizationsHarness(testDatabase.database));
});
