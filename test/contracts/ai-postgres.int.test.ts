import { describe } from 'vitest';
import { createTestDatabase, requirePostgres } from '../support/postgres';
import { aiCapacityContract } from './ai-capacity.contract';
import { aiIdsPastInt4, postgresAiHarness } from './postgres-ai-harness';

const postgres = await requirePostgres();

describe.skipIf(!postgres)('AI stores on the PostgreSQL server', () => {
  aiCapacityContract('postgres', async () => {
    const db = await createTestDatabase();
    return postgresAiHarness(db.database, () => db.drop());
  });
});

describe.skipIf(!postgres)('AI stores on the PostgreSQL server, their ids past int4', () => {
  aiCapacityContract('postgres, ids past 2^31', async () => {
    const db = await createTestDatabase();
    await aiIdsPastInt4(db.database);
    return postgresAiHarness(db.database, () => db.drop());
  });
});
