import { describe } from 'vitest';
import { createTestDatabase, requirePostgres } from '../support/postgres';
import { copilotAdmissionContract } from './copilot-admission.contract';
import { postgresAdmissionHarness } from './copilot-admission-harness';
import { aiIdsPastInt4 } from './postgres-ai-harness';

const postgres = await requirePostgres();

describe.skipIf(!postgres)('the copilot admission on the PostgreSQL server', () => {
  copilotAdmissionContract('postgres', async () => {
    const db = await createTestDatabase();
    return postgresAdmissionHarness(db.database, () => db.drop());
  });
});

describe.skipIf(!postgres)('the copilot admission on the PostgreSQL server, reservation ids past int4', () => {
  copilotAdmissionContract('postgres, ids past 2^31', async () => {
    const db = await createTestDatabase();
    await aiIdsPastInt4(db.database);
    return postgresAdmissionHarness(db.database, () => db.drop());
  });
});
