import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PostgresProjectRepository } from '../../adapters/postgres/postgres-project-repository';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { insertOrganization, insertUser } from '../support/sessions';
import { postgresProjectHarness } from './postgres-project-harness';
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
      // Enough organizations and rows that the planner prefers an index over a scan and sort.
      for (let o = 0; o < 40; o += 1) {
        const org = await insertOrganization(db.database);
        const user = await insertUser(db.database, org);
        organizationId = org;
        await db.database.run(
          `insert into project (organization_id, user_id, name, created_at, updated_at)
           select $1, $2, 'p' || g, now() - g * interval '1 second', now() from generate_series(1, 500) g`,
          [org, user],
        );
      }
      await db.database.run('analyze project', []);
    });
    afterAll(async () => db?.drop());

    /** EXPLAINs exactly the SQL the adapter sends, with its bound parameters (taken at the driver). */
    async function planOf(run: (repository: PostgresProjectRepository) => Promise<unknown>): Promise<string> {
      const query = vi.spyOn(pg.Client.prototype, 'query');
      let sent: unknown[][];
      try {
        await run(new PostgresProjectRepository(db.database));
        sent = query.mock.calls as unknown[][];
      } finally {
        query.mockRestore();
      }
      // The SQL is the first argument, alone or (a prepared statement) as the `text` of a query config.
      const sqlOf = (first: unknown) => (typeof first === 'string' ? first : (first as { text?: unknown } | undefined)?.text);
      const [first, values] = sent.find(([first]) => {
        const text = sqlOf(first);
        return typeof text === 'string' && !/^(begin|commit|rollback)\b/i.test(text);
      })!;
      const rows = await db.database.select<{ 'QUERY PLAN': string }>(`explain ${sqlOf(first) as string}`, values as unknown[]);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
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
