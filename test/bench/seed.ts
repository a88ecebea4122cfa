import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { BcryptPasswordHasher } from '../../adapters/crypto/bcrypt-password-hasher';
import { migrate, openOrm } from '../../adapters/postgres/orm';

/** The server the throwaway database is created on (its `postgres` database is the admin one). */
export const BENCH_PG_URL = process.env.BENCH_PG_URL ?? process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const ORGANIZATIONS = 50;
export const USERS_PER_ORGANIZATION = 4;
export const PROJECTS_PER_ORGANIZATION = 20;
export const LIST_SIZES = [10, 1_000, 100_000] as const;
export const LOGIN_PASSWORD = 'bench-password-1234';

export interface BenchData {
  /** `postgres://…/tk_bench_<random>`, for APP_DATABASE_URL. */
  url: string;
  name: string;
  /** One raw session token per user of the 50 organizations (200). */
  tokens: string[];
  /** Every user of the 50 organizations; all share LOGIN_PASSWORD, hashed at `passwordHashCost`. */
  loginEmails: string[];
  /** One session token in each of the organizations holding LIST_SIZES projects. */
  listTokens: Array<{ projects: number; token: string }>;
  seedSeconds: number;
  /** Drops the database, even with connections still open. Idempotent. */
  drop(): Promise<void>;
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const newToken = () => randomBytes(32).toString('base64url');
const sha256 = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** One verified member per org id, each with a live session; returns the tokens in `orgIds` order (× perOrg). */
async function usersWithSessions(db: pg.Client, orgIds: number[], perOrg: number, passwordHash: string): Promise<{ emails: string[]; tokens: string[] }> {
  const { rows } = await db.query<{ id: number; email: string }>(
    `insert into app_user (organization_id, email, password_hash, role, status, email_verified_at, created_at, updated_at)
     select o, 'bench-' || o || '-' || n || '@example.test', $2, 'member', 'active', now(), now(), now()
       from unnest($1::int[]) with ordinality as t(o, ord), generate_series(1, $3::int) n
      order by ord, n
     returning id, email`,
    [orgIds, passwordHash, perOrg],
  );
  const tokens = rows.map(() => newToken());
  await db.query(
    `insert into session (user_id, token_hash, created_at, last_seen_at, expires_at)
     select u, h, now(), now(), now() + interval '1 day' from unnest($1::int[], $2::text[]) as t(u, h)`,
    [rows.map((r) => r.id), tokens.map(sha256)],
  );
  return { emails: rows.map((r) => r.email), tokens };
}

/** `count` projects per organization, a second apart, newest first by (created_at, id). */
async function projects(db: pg.Client, orgIds: number[], count: number): Promise<void> {
  await db.query(
    `insert into project (organization_id, user_id, name, description, created_at, updated_at)
     select o.id, (select min(u.id) from app_user u where u.organization_id = o.id), 'Project ' || g,
            'Benchmark project number ' || g, now() - g * interval '1 second', now() - g * interval '1 second'
       from organization o, generate_series(1, $2::int) g
      where o.id = any($1::int[])`,
    [orgIds, count],
  );
}

/**
 * The PostgreSQL backends serving the database at `url` (the connection that asks left out):
 * their CPU is the benchmark's own, not another process's.
 */
export function databaseBackends(url: string): () => Promise<number[]> {
  return () =>
    withClient(url, async (db) => {
      const { rows } = await db.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()');
      return rows.map((r) => r.pid);
    });
}

/**
 * A throwaway `tk_bench_<random>` database, migrated the way the app migrates, holding the
 * benchmark's organizations, users, sessions and projects. `listSizes` (LIST_SIZES by default)
 * are the extra organizations of the list-latency workload; a bench that does not use them passes [].
 */
export async function seedBenchDatabase(passwordHashCost: number, listSizes: readonly number[] = LIST_SIZES): Promise<BenchData> {
  const started = performance.now();
  const name = `tk_bench_${randomBytes(6).toString('hex')}`;
  const url = new URL(BENCH_PG_URL);
  url.pathname = `/${name}`;
  await withClient(BENCH_PG_URL, (admin) => admin.query(`create database "${name}"`));
  let dropped: Promise<void> | undefined;
  const drop = () =>
    (dropped ??= withClient(BENCH_PG_URL, (admin) => admin.query(`drop database if exists "${name}" with (force)`)).then(() => undefined));
  try {
    const orm = await openOrm({ clientUrl: url.toString(), poolMax: 1 });
    try {
      await migrate(orm);
    } finally {
      await orm.close(true);
    }
    const passwordHash = await new BcryptPasswordHasher(passwordHashCost).hash(LOGIN_PASSWORD);
    const seeded = await withClient(url.toString(), async (db) => {
      const orgs = await db.query<{ id: number }>(
        `insert into organization (name, status, created_at, updated_at)
         select 'Bench org ' || g, 'active', now(), now() from generate_series(1, $1::int) g order by g returning id`,
        [ORGANIZATIONS],
      );
      const orgIds = orgs.rows.map((r) => r.id);
      const users = await usersWithSessions(db, orgIds, USERS_PER_ORGANIZATION, passwordHash);
      await projects(db, orgIds, PROJECTS_PER_ORGANIZATION);
      const listTokens: BenchData['listTokens'] = [];
      for (const size of listSizes) {
        const [org] = (await db.query<{ id: number }>(`insert into organization (name, status, created_at, updated_at) values ($1, 'active', now(), now()) returning id`, [`List ${size}`])).rows;
        const { tokens } = await usersWithSessions(db, [org!.id], 1, passwordHash);
        await projects(db, [org!.id], size);
        listTokens.push({ projects: size, token: tokens[0]! });
      }
      await db.query('analyze');
      return { tokens: users.tokens, loginEmails: users.emails, listTokens };
    });
    return { url: url.toString(), name, ...seeded, seedSeconds: (performance.now() - started) / 1000, drop };
  } catch (error) {
    await drop();
    throw error;
  }
}
