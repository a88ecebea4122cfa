import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresProjectRepository } from '../../adapters/postgres/postgres-project-repository';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { insertOrganization, insertUser, postgresProjectHarness } from './postgres-project-harness';
import { projectRepositoryContract } from './project-repository.contract';

const postgres = await requirePostgres();

describe.skipIf(!postgres)('PostgresProjectRepository on the PostgreSQL server', () => {
  projectRepositoryContract('postgres', async () => {
    const db = await createTestDatabase();
    return postgresProjectHarness(db.database, () => db.drop());
  });

  describe('query plans', () => {
    let db: TestDatabase;
    let organizationId: number;

    beforeAll(async () => {
      db = await createTestDatabase();
      const knex = db.database.db;
      // Enough organizations and rows that the planner prefers an index over a scan and sort.
      for (let o = 0; o < 40; o += 1) {
        const org = await insertOrganization(db.database);
        const user = await insertUser(db.database, org);
        organizationId = org;
        await knex.raw(
          `insert into project (organization_id, user_id, name, created_at, updated_at)
           select ?, ?, 'p' || g, now() - g * interval '1 second', now() from generate_series(1, 500) g`,
          [org, user],
        );
      }
      await knex.raw('analyze project');
    });
    afterAll(async () => db?.drop());

    /** EXPLAINs exactly the SQL the adapter sends, with its bound parameters. */
    async function planOf(run: (repository: PostgresProjectRepository) => Promise<unknown>): Promise<string> {
      const knex = db.database.db;
      const captured: Array<{ sql: string; bindings: unknown[] }> = [];
      const listener = (query: { sql: string; bindings: unknown[] }) => captured.push(query);
      knex.client.on('query', listener);
      try {
        // Inside a transaction the adapter's fixed SQL runs through knex, whose query event lets
        // us capture it (outside one it goes straight to a pooled connection, unobserved).
        await db.database.transaction(() => run(new PostgresProjectRepository(db.database)));
      } finally {
        knex.client.removeListener('query', listener);
      }
      const [query] = captured.filter((q) => !/^(BEGIN|COMMIT|ROLLBACK)\b/i.test(q.sql));
      // The event carries the native `$n` placeholders; knex.raw binds `?` (they come in order).
      const sql = query!.sql.replace(/\$\d+/g, '?');
      const result = (await knex.raw(`explain ${sql}`, query!.bindings as never[])) as { rows: Array<{ 'QUERY PLAN': string }> };
      return result.rows.map((row) => row['QUERY PLAN']).join('\n');
    }

    it('serves a page of the list, and the next one by cursor, from the list index without sorting', async () => {
      const repository = new PostgresProjectRepository(db.database);
      const [, last] = await repository.list(organizationId, { limit: 2 });
      for (const plan of [
        await planOf((r) => r.list(organizationId, { limit: 51 })),
        await planOf((r) => r.list(organizationId, { limit: 51, after: last! })),
      ]) {
        expect(plan).toContain('project_organization_id_created_at_id_index');
        expect(plan).not.toMatch(/\bSort\b/);
      }
    });

    it('finds one project by primary key', async () => {
      expect(await planOf((r) => r.findById(organizationId, 123))).toContain('project_pkey');
    });
  });
});
