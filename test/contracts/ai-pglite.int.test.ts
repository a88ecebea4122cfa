import { createTestPglite } from '../support/postgres';
import { aiCapacityContract } from './ai-capacity.contract';
import { postgresAiHarness } from './postgres-ai-harness';

// The embedded default database: same adapters and SQL, over PGlite's single connection.
aiCapacityContract('postgres on embedded PGlite', async () => {
  const pglite = await createTestPglite();
  return postgresAiHarness(pglite.database, () => pglite.close());
});
