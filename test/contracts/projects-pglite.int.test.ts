import { createTestPglite } from '../support/postgres';
import { postgresProjectHarness } from './postgres-project-harness';
import { projectRepositoryContract } from './project-repository.contract';

// The embedded default database: same adapter and SQL, over PGlite's single connection.
projectRepositoryContract('postgres on embedded PGlite', async () => {
  const pglite = await createTestPglite();
  return postgresProjectHarness(pglite.database, () => pglite.close());
});
