import { createTestPglite } from '../support/postgres';
import { postgresSubscriptionHarness } from './postgres-subscription-harness';
import { subscriptionRepositoryContract } from './subscription-repository.contract';

// The embedded default database: same adapter and SQL, over PGlite's single connection.
subscriptionRepositoryContract('postgres on embedded PGlite', async () => {
  const pglite = await createTestPglite();
  return postgresSubscriptionHarness(pglite.database, () => pglite.close());
});
