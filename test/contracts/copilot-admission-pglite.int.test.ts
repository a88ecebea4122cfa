import { createTestPglite } from '../support/postgres';
import { copilotAdmissionContract } from './copilot-admission.contract';
import { postgresAdmissionHarness } from './copilot-admission-harness';

// The embedded default database: the same function and SQL, over PGlite's single connection.
copilotAdmissionContract('postgres on embedded PGlite', async () => {
  const pglite = await createTestPglite();
  return postgresAdmissionHarness(pglite.database, () => pglite.close());
});
