import { randomBytes } from 'node:crypto';
import { access, cp, mkdtemp, rename, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Database } from '../../adapters/postgres/database';
import { SystemClock } from '../../adapters/system/system-clock';
import type { Clock } from '../../core/shared/clock.port';
import { startEmbeddedPostgres } from '../../adapters/postgres/embedded-postgres';
import { migrate, openOrm } from '../../adapters/postgres/orm';
import { pgliteTemplateDir, templateDatabaseName, TEST_PG_URL, testRunId } from './test-templates';

/**
 * Throwaway databases for integration and end-to-end tests. Each test file gets its own database
 * (`tk_test_<random>` on the local server, or a PGlite data dir in a temp folder), so a test only
 * ever touches data it created, and files can run in parallel.
 *
 * Under vitest each one starts as a copy of the run's migrated template (test-templates.ts), then
 * runs `migrate` itself, which must find nothing pending. The template is made by applying every
 * migration to an empty database, so a broken migration still fails every test that needs a
 * database; tests of the migrations themselves start from createEmptyDatabase or a data dir of
 * their own, never from the template.
 */
export { TEST_PG_URL };
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

const CONNECT_TIMEOUT_MS = 5_000;

export interface TestDatabase {
  /** `postgres://…/tk_test_<random>`, for APP_DATABASE_URL. */
  url: string;
  name: string;
  orm: MikroORM;
  database: Database;
  /** Closes the ORM and drops the database, even with connections still open. Idempotent. */
  drop(): Promise<void>;
}

export interface TestPglite {
  orm: MikroORM;
  database: Database;
  dataDir: string;
  /** Names of the migrations applied when it was opened. */
  applied: string[];
  /** Closes the ORM and PGlite; removes the data dir unless it was passed in. */
  close(): Promise<void>;
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_PG_URL, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A fresh database with no schema at all (no migration applied), and how to drop it. */
export async function createEmptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `tk_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((admin) => admin.query(`create database "${name}"`));
  return {
    url: databaseUrl(name),
    drop: () => withAdmin((admin) => admin.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}

let serverTemplateReady: Promise<string> | undefined;

/**
 * The run's migrated template database on the local server, made by the first caller of the run:
 * the worker processes take an advisory lock keyed by its name, so one migrates while the others
 * wait, then find it. It is migrated under `<name>_partial` and renamed when complete, so a
 * template that exists is whole. Connections to it are then refused: PostgreSQL copies a template
 * only while no session is connected to it.
 */
function serverTemplateDatabase(runId: string): Promise<string> {
  serverTemplateReady ??= withAdmin(async (admin) => {
    const name = templateDatabaseName(runId);
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    try {
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount === 0) {
        const partial = `${name}_partial`;
        await admin.query(`drop database if exists "${partial}" with (force)`);
        await admin.query(`create database "${partial}"`);
        const orm = await openOrm({ clientUrl: databaseUrl(partial), poolMax: 1, purpose: 'migrate' });
        try {
          await migrate(orm);
        } finally {
          await orm.close(true);
        }
        await admin.query(`alter database "${partial}" rename to "${name}"`);
        await admin.query(`alter database "${name}" allow_connections false`);
      }
      return name;
    } finally {
      await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
    }
  });
  // A failed attempt (the server was down) is not kept: the next database tries again.
  serverTemplateReady.catch(() => (serverTemplateReady = undefined));
  return serverTemplateReady;
}

/** A fresh, migrated database on the local PostgreSQL server. */
export async function createTestDatabase(clock: Clock = new SystemClock()): Promise<TestDatabase> {
  const name = `tk_test_${randomBytes(6).toString('hex')}`;
  const runId = testRunId();
  const template = runId ? await serverTemplateDatabase(runId) : undefined;
  await withAdmin((admin) => admin.query(template ? `create database "${name}" template "${template}"` : `create database "${name}"`));
  const url = databaseUrl(name);
  let orm: MikroORM | undefined;
  const dropDatabase = () => withAdmin((admin) => admin.query(`drop database if exists "${name}" with (force)`));
  try {
    orm = await openOrm({ clientUrl: url, poolMax: 4 });
    await migrate(orm);
  } catch (error) {
    await orm?.close(true);
    await dropDatabase();
    throw error;
  }
  const database = new Database(orm, clock);
  let dropped: Promise<void> | undefined;
  return {
    url,
    name,
    orm,
    database,
    drop() {
      dropped ??= (async () => {
        await database.close().catch(() => undefined);
        await dropDatabase();
      })();
      return dropped;
    },
  };
}

let pgliteTemplateReady: Promise<string> | undefined;

const exists = (path: string) => access(path).then(
  () => true,
  () => false,
);

/**
 * The run's migrated PGlite `pgdata`, made by the first caller of the run: built in a directory of
 * its own, closed cleanly, then renamed into place. Two workers that start at once may both build
 * it; the rename of the second fails and it uses the first's.
 */
function pgliteTemplate(runId: string): Promise<string> {
  pgliteTemplateReady ??= (async () => {
    const template = pgliteTemplateDir(runId);
    if (await exists(template)) return template;
    const building = await mkdtemp(`${template}-building-`);
    try {
      const embedded = await startEmbeddedPostgres(building);
      try {
        const orm = await openOrm({ embedded: embedded.connection });
        try {
          await migrate(orm);
        } finally {
          await orm.close(true);
        }
      } finally {
        await embedded.close();
      }
      await rename(join(building, 'pgdata'), template).catch(async (error: unknown) => {
        if (!(await exists(template))) throw error;
      });
      return template;
    } finally {
      await rm(building, { recursive: true, force: true });
    }
  })();
  pgliteTemplateReady.catch(() => (pgliteTemplateReady = undefined));
  return pgliteTemplateReady;
}

/**
 * Embedded PostgreSQL on a data dir (a new temp dir by default), opened the way the app opens it:
 * the socket server, the stock driver with one connection, then every pending migration. A new
 * temp dir starts as a copy of the run's migrated template (none pending then, and `applied` is
 * empty); a data dir passed in is opened as it is.
 */
export async function createTestPglite(dataDir?: string, clock: Clock = new SystemClock()): Promise<TestPglite> {
  const dir = dataDir ?? (await mkdtemp(join(tmpdir(), 'tk-pglite-')));
  const removeDir = () => (dataDir ? Promise.resolve() : rm(dir, { recursive: true, force: true }));
  let embedded;
  let orm: MikroORM | undefined;
  try {
    const runId = testRunId();
    if (!dataDir && runId) await cp(await pgliteTemplate(runId), join(dir, 'pgdata'), { recursive: true });
    embedded = await startEmbeddedPostgres(dir);
    orm = await openOrm({ embedded: embedded.connection });
    const applied = await migrate(orm);
    const database = new Database(orm, clock);
    const running = embedded;
    let closed: Promise<void> | undefined;
    return {
      orm,
      database,
      dataDir: dir,
      applied,
      close() {
        closed ??= (async () => {
          await database.close();
          await running.close();
          await removeDir();
        })();
        return closed;
      },
    };
  } catch (error) {
    await orm?.close(true);
    await embedded?.close();
    await removeDir();
    throw error;
  }
}

function reachable(host: string, port: number, probe?: { send: string; expect: string }): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    const finish = (problem: string | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(problem);
    };
    const timer = setTimeout(() => finish(`no answer within ${CONNECT_TIMEOUT_MS} ms`), CONNECT_TIMEOUT_MS);
    socket.once('error', (error) => finish(error.message));
    socket.once('connect', () => {
      if (!probe) return finish(undefined);
      socket.write(probe.send);
      socket.once('data', (data) => finish(data.toString().startsWith(probe.expect) ? undefined : `unexpected answer ${data.toString().trim()}`));
    });
  });
}

async function requireService(label: string, url: string, problem: string | undefined): Promise<boolean> {
  if (problem === undefined) return true;
  const message = `${label} is not reachable at ${url} (${problem}).`;
  if (process.env.CI === 'true') {
    throw new Error(`${message} CI=true: tests that need it fail instead of skipping. Start it (see .ci/run).`);
  }
  console.warn(`[skipped] ${message} These tests are skipped locally; under CI=true they fail.`);
  return false;
}

/**
 * Whether the local PostgreSQL server answers a query. Use at the top of a test file:
 * `const postgres = await requirePostgres(); describe.skipIf(!postgres)(…)`. Under CI=true an
 * unreachable server throws, failing the file, so CI never passes by skipping.
 */
export async function requirePostgres(): Promise<boolean> {
  let problem: string | undefined;
  try {
    await withAdmin((admin) => admin.query('select 1'));
  } catch (error) {
    problem = error instanceof Error ? error.message || error.name : String(error);
  }
  return requireService('PostgreSQL', new URL(TEST_PG_URL).host, problem);
}

/** Like requirePostgres, for the local Redis server (TEST_REDIS_URL). */
export async function requireRedis(): Promise<boolean> {
  const url = new URL(TEST_REDIS_URL);
  const problem = await reachable(url.hostname, Number(url.port || 6379), { send: 'PING\r\n', expect: '+PONG' });
  return requireService('Redis', url.host, problem);
}
