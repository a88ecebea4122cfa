import { MikroORM, PostgreSqlDriver, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './schema';
import { migrations } from './migrations';

export interface OrmOptions {
  /** `postgres://…` for a server; omit and pass `embedded` for PGlite. */
  clientUrl?: string;
  embedded?: { host: string; port: number };
  /** Pool size for a server. The embedded database always gets exactly one connection. */
  poolMax?: number;
}

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
    // Passed to pg's Pool: `connectionTimeoutMillis` also bounds the wait for a free pooled
    // connection, so a request that would need a second one fails in 5 s instead of hanging.
    driverOptions: { statement_timeout: 15_000, connectionTimeoutMillis: 5_000 },
    debug: false,
    allowGlobalContext: true,
    ensureDatabase: false,
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
