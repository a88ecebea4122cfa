import { afterAll, beforeAll, describe } from 'vitest';
import type { Database } from '../../adapters/postgres/database';
import { PostgresOutboxDeliveryStore } from '../../adapters/postgres/postgres-outbox-delivery-store';
import { createTestDatabase, createTestPglite, requirePostgres } from '../support/postgres';
import type { TestDatabase, TestPglite } from '../support/postgres';
import { anOutboxMessage, describeOutboxDeliveryStoreContract } from './outbox-delivery-store.contract';
import type { OutboxDeliveryHarness, StoredOutboxEmail } from './outbox-delivery-store.contract';

/** Dates come back as text from the driver (MikroORM's type parsers). */
type Stored = Omit<StoredOutboxEmail, 'nextAttemptAt' | 'sentAt'> & { nextAttemptAt: string | Date; sentAt: string | Date | null };

/** Rows go in with plain SQL, so a test can say when each one is due. One database per backend, emptied per test. */
async function harness(database: Database): Promise<OutboxDeliveryHarness> {
  await database.run('truncate email_outbox restart identity', []);
  return {
    store: new PostgresOutboxDeliveryStore(database),
    async enqueue(dueAt, overrides) {
      const message = anOutboxMessage(overrides);
      const [row] = await database.select<{ id: string }>(
        `insert into email_outbox (idempotency_key, recipient, subject, text_body, html_body, tag, status, attempts, next_attempt_at, created_at)
         values (gen_random_uuid(), $1, $2, $3, $4, $5, 'pending', 0, $6, $7) returning id`,
        [message.to, message.subject, message.text, message.html, message.tag ?? null, dueAt, database.now()],
      );
      return Number(row?.id);
    },
    async inspect(id) {
      const [row] = await database.select<Stored>(
        `select status, attempts, next_attempt_at as "nextAttemptAt", last_error as "lastError", sent_at as "sentAt",
                text_body as "text", html_body as "html"
           from email_outbox where id = $1`,
        [id],
      );
      if (!row) throw new Error(`no outbox email ${id}`);
      return { ...row, nextAttemptAt: new Date(row.nextAttemptAt), sentAt: row.sentAt === null ? null : new Date(row.sentAt) };
    },
    teardown: async () => {},
  };
}

const postgres = await requirePostgres();

describe.skipIf(!postgres)('PostgreSQL server', () => {
  let testDb: TestDatabase;
  beforeAll(async () => {
    testDb = await createTestDatabase();
  });
  afterAll(async () => {
    await testDb?.drop();
  });
  describeOutboxDeliveryStoreContract('PostgreSQL', () => harness(testDb.database));
});

describe('embedded PGlite', () => {
  let pglite: TestPglite;
  beforeAll(async () => {
    pglite = await createTestPglite();
  });
  afterAll(async () => {
    await pglite?.close();
  });
  describeOutboxDeliveryStoreContract('PGlite', () => harness(pglite.database));
});
