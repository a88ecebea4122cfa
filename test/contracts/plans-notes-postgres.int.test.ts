import { describe } from 'vitest';
import { createTestDatabase, requirePostgres } from '../support/postgres';
import { noteRepositoryContract } from './note-repository.contract';
import { planRepositoryContract } from './plan-repository.contract';
import { postgresNoteHarness, postgresPlanHarness } from './postgres-plans-harness';

const postgres = await requirePostgres();

describe.skipIf(!postgres)('plans and notes on the PostgreSQL server', () => {
  planRepositoryContract('postgres', async () => {
    const db = await createTestDatabase();
    return postgresPlanHarness(db.database, () => db.drop());
  });

  noteRepositoryContract('postgres', async () => {
    const db = await createTestDatabase();
    return postgresNoteHarness(db.database, () => db.drop());
  });
});
