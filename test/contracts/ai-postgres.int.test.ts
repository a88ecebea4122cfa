import { describe } from 'vitest';
import { createTestDatabase, requirePostgres } from '../support/postgres';
import { aiCapacityContract } from './ai-capacity.contract';
import { postgresAiHarness } from './postgres-ai-harness';

const postgres = await requirePostgres();

describe.skipIf(!postgres)('AI stores on the PostgreSQL server', () => {
  aiCapacityContract('postgres', async () => {
    const db = await createTestDatabase();
    return postgresAiHarness(db.database, () => db.drop());
  });
});
