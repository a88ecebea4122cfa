import { MikroORM, PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './schema';
import { routines as quotaRoutines } from './schema/quota.routines';
import { aiRoutines } from './schema/ai.routines';
import { migrations } from './migrations';
import { pooledClientClass, type PgClientClass } from './pooled-client';

export interface OrmOptions {
  /** `postgres://…` for a server; omit and pass `embedded` for PGlite. */
  clientUrl?: string;
  embedded?: { host: string; port: number };
  /** Pool size for a server. The embedded database always gets exactly one connection. */
  poolMax?: number;
  /**
   * `serve` (default): the time limits below, so a database that stops answering costs a request a
   * bounded wait. `migrate`: no client-side query time-out and no statement time-out, since a
   * migration on a large table may rightly take minutes.
   */
  purpose?: 'serve' | 'migrate';
}

/**
 * How long a request may wait on PostgreSQL. A server that refuses connections (stopped, killed,
 * restarting) fails at once; one that accepts and never answers (frozen, wedged, a half-dead
 * network path) is given up on after QUERY_MS on a connection it already holds, or CONNECT_MS
 * for a new connection or a free pooled one. Either way the request answers 503 within about
 * QUERY_MS, instead of waiting as long as the server stays frozen.
 */
export const DATABASE_TIME_LIMITS = {
  /** Server side: a statement running longer is cancelled by PostgreSQL itself (clean error, connection kept). */
  statementMs: 5_000,
  /** Client side, a little above the server's own limit: only a server that does not answer at all reaches it. */
  queryMs: 5_500,
  /** Opening a connection, and waiting for a free one in the pool. */
  connectMs: 2_000,
  /** TCP keepalive on idle connections, so a peer that vanished without a reset is noticed. */
  keepAliveIdleMs: 10_000,
  /** A transaction left open by a client that stopped (frozen, partitioned) releases its locks. */
  idleInTransactionMs: 30_000,
} as const;

export const MIGRATIONS_PATH = 'adapters/postgres/migrations';

/** MikroORM on the stock PostgreSQL driver, for a real server and for embedded PGlite alike. */
export function ormOptions(options: OrmOptions): Options {
  const embedded = options.embedded;
  return {
    driver: PostgreSqlDriver,
    ...(embedded
      ? { host: embedded.host, port: embedded.port, user: 'postgres', dbName: 'postgres' }
      : { clientUrl: options.clientUrl }),
    entities,
    routines: [...quotaRoutines, ...aiRoutines],
    extensions: [Migrator],
    discovery: { warnWhenNoEntities: false },
    migrations: {
      migrationsList: migrations,
      tableName: 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
      path: MIGRATIONS_PATH,
      pathTs: MIGRATIONS_PATH,
      emit: 'ts',
    },
    pool: embedded ? { min: 0, max: 1 } : { min: 0, max: options.poolMax ?? 10, idleTimeoutMillis: 30_000 },
    driverOptions: driverOptions(options.purpose ?? 'serve', Boolean(embedded)),
    debug: false,
    allowGlobalContext: true,
    ensureDatabase: false,
  };
}

/**
 * Passed to pg's Pool and from there to every client. `connectionTimeoutMillis` also bounds the
 * wait for a free pooled connection, so a request that would need a second one fails instead of
 * hanging. The embedded database runs in this very process (it cannot freeze without us), so it
 * gets no client-side query time-out: a long migration at startup must not be cut.
 */
function driverOptions(purpose: 'serve' | 'migrate', embedded: boolean): Record<string, unknown> {
  const limits = DATABASE_TIME_LIMITS;
  const common = { connectionTimeoutMillis: purpose === 'migrate' ? 10_000 : limits.connectMs, idle_in_transaction_session_timeout: limits.idleInTransactionMs };
  if (purpose === 'migrate') return { ...common, statement_timeout: 0 };
  if (embedded) return { ...common, statement_timeout: 15_000, onPoolCreated: usePooledClient() };
  return {
    ...common,
    statement_timeout: limits.statementMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: limits.keepAliveIdleMs,
    onPoolCreated: usePooledClient(limits.queryMs),
  };
}

/**
 * The pool's clients are `PooledClient`s, which also keep the client-side query time limit
 * (`pooled-client.ts` says what they change and why; pg's own `query_timeout` is not used).
 */
function usePooledClient(queryTimeoutMs?: number): (pool: { Client: PgClientClass }) => void {
  return (pool) => {
    pool.Client = pooledClientClass(pool.Client, queryTimeoutMs);
  };
}

export async function openOrm(options: OrmOptions): Promise<MikroORM> {
  return MikroORM.init(ormOptions(options));
}

/** Applies every pending migration; returns the names applied. */
export async function migrate(orm: MikroORM): Promise<string[]> {
  const applied = await orm.migrator.up();
  return applied.map((m) => m.name);
}

/** Names of the migrations not yet applied to this database. */
export async function pendingMigrations(orm: MikroORM): Promise<string[]> {
  const pending = await orm.migrator.getPending();
  return pending.map((m) => m.name);
}
