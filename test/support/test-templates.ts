import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * One migrated template per test run, copied for every test database (test/support/postgres.ts):
 * `create database … template` takes a fraction of a second where migrating a new database takes
 * seconds, and PGlite's initdb in WebAssembly many more. The run is named by RUN_ID_VARIABLE, set
 * once by vitest's global setup (test/support/global-setup.ts) before any worker starts, so every
 * worker process of the run shares the templates, and the global teardown removes them.
 * Without it (a script outside vitest) there is no template: every database is migrated from
 * scratch, as before. Under `vitest` (watch mode) the templates last as long as the watcher: a
 * migration added meanwhile is applied to each copy by its own migrate(); after editing one that
 * was already applied, restart the watcher.
 */
export const RUN_ID_VARIABLE = 'TK_TEST_RUN_ID';

export const TEST_PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export function testRunId(): string | undefined {
  return process.env[RUN_ID_VARIABLE] || undefined;
}

export function newTestRunId(): string {
  return randomBytes(6).toString('hex');
}

/** The server-side template database of a run; `<name>_partial` while it is being migrated. */
export function templateDatabaseName(runId: string): string {
  return `tk_template_${runId}`;
}

/** The migrated PGlite `pgdata` directory of a run. */
export function pgliteTemplateDir(runId: string): string {
  return join(tmpdir(), `tk-pglite-template-${runId}`);
}

/**
 * Drops the run's template database and removes its PGlite data dir. A server that does not answer
 * is skipped: then no template could have been made on it this run.
 */
export async function removeTestTemplates(runId: string): Promise<void> {
  await rm(pgliteTemplateDir(runId), { recursive: true, force: true });
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch {
    return;
  }
  try {
    const name = templateDatabaseName(runId);
    for (const database of [name, `${name}_partial`]) await client.query(`drop database if exists "${database}" with (force)`);
  } finally {
    await client.end();
  }
}
