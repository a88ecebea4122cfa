import { afterAll, beforeAll, describe } from 'vitest';
import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresSubscriptionRepository } from '../../adapters/postgres/postgres-subscription-repository';
import { PostgresAuditLog } from '../../adapters/postgres/postgres-audit-log';
import { FakeClock } from '../support/fake-clock';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { insertOrganization, insertUser } from '../support/sessions';
import { describeBillingRaces } from './billing-races.contract';

// Under CI=true an unreachable server throws here and fails the file instead of skipping it.
const postgres = await requirePostgres();

/** The same races on real PostgreSQL, where the transactions overlap: the row locks hold them apart. */
describe.skipIf(!postgres)('billing races on PostgreSQL', () => {
  const clock = new FakeClock();
  let testDatabase: TestDatabase;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(clock);
  });
  afterAll(() => testDatabase?.drop());

  describeBillingRaces(
    'postgres',
    async () => {
      const database = testDatabase.database;
      const auditLog = new PostgresAuditLog(database);
      return {
        audit: auditLog,
        events: auditLog,
        subscriptions: new PostgresSubscriptionRepository(database),
        organizations: new PostgresOrganizationRepository(database),
        unitOfWork: database,
        clock,
        async newOrganization() {
          const organizationId = await insertOrganization(database);
          return { organizationId, adminId: await insertUser(database, organizationId, 'org_admin') };
        },
      };
    },
    { rounds: 10 },
  );
});
