import { describe } from 'vitest';
import { createTestDatabase, requirePostgres } from '../support/postgres';
import { copilotAdmissionContract } from './copilot-admission.contract';
import { postgresAdmissionHarness } from './copilot-admission-harness';

const postgres = await requirePostgres();

describe.skipIf(!postgres)('the copilot admission on the PostgreSQL server', () => {
  copilotAdmissionContract('postgres', async () => {
    const db = await createTestDatabase();
    return postgresAdmissionHarness(db.database, () => db.drop());
  });
});
