import { describe } from 'vitest';
import { createTestDatabase, requirePostgres } from '../support/postgres';
import { postgresSubscriptionHarness } from './postgres-subscription-harness';
import { subscriptionRepositoryContract } from './subscription-repository.contract';

const postgres = await requirePostgres();

describe.skipIf(!postgres)('PostgresSubscriptionRepository on the PostgreSQL server', () => {
  subscriptionRepositoryContract('postgres', async () => {
    const db = await createTestDatabase();
    return postgresSubscriptionHarness(db.database, () => db.drop());
  });
});
