import { createTestPglite } from '../support/postgres';
import { noteRepositoryContract } from './note-repository.contract';
import { planRepositoryContract } from './plan-repository.contract';
import { postgresNoteHarness, postgresPlanHarness } from './postgres-plans-harness';

// The embedded default database: same adapters and SQL, over PGlite's single connection.
planRepositoryContract('postgres on embedded PGlite', async () => {
  const pglite = await createTestPglite();
  return postgresPlanHarness(pglite.database, () => pglite.close());
});

noteRepositoryContract('postgres on embedded PGlite', async () => {
  const pglite = await createTestPglite();
  return postgresNoteHarness(pglite.database, () => pglite.close());
});
