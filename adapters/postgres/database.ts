import { CompiledQuery, type Kysely } from 'kysely';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Pool } from 'pg';
import type { Clock } from '../../core/shared/clock.port';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';
import type { Tables } from './schema/tables';

/**
 * Fixed SQL that `Database.select` runs, outside a transaction, as a named prepared statement:
 * each pooled connection parses and plans it once, then only binds and runs it. Meant for the
 * reads of every request: planning the session lookup's three-table join cost PostgreSQL several
 * times what running it did. Name the result columns (never `select *`): a prepared statement
 * whose result columns change under it (a migration adding one) fails instead of re-planning.
 */
export interface PreparedSql {
  /** Unique per text: the driver refuses one name for two texts on a connection. */
  readonly name: string;
  readonly text: string;
}

/** pg-pool's error when no pooled connection came free within its wait limit: nothing was sent. */
const isPoolWaitTimeout = (error: unknown) => error instanceof Error && error.message === 'timeout exceeded when trying to connect';

/**
 * The repositories' one handle on PostgreSQL, and the one place transactions are propagated.
 *
 * Every query goes through MikroORM's Kysely instance (`em.getKysely()`): its query builder for
 * ordinary statements, `select(sql, params)` for fixed SQL on hot paths. Both run on MikroORM's
 * pool. `transaction` is `em.transactional`, which keeps the open transaction in MikroORM's
 * AsyncLocalStorage context; `db` resolves that context on every call, so each repository call
 * made inside `transaction` joins it without being handed anything. A request therefore never
 * asks the pool for a second connection while it holds the first (the embedded database has one).
 *
 * Timestamps come from the Clock, never from SQL's `now()`: a time the domain decides on is passed
 * to the repository method; bookkeeping stamps (`created_at`, `updated_at`) use `now()` here, as
 * the in-memory store does, so both adapter families record the same times.
 *
 * No identity map is used: rows are read into plain domain objects, so nothing accumulates on
 * the shared EntityManager between requests.
 */
export class Database implements UnitOfWork {
  constructor(
    readonly orm: MikroORM,
    private readonly clock: Clock,
  ) {}

  /** The time to stamp on `created_at` / `updated_at`. */
  now(): Date {
    return this.clock.now();
  }

  /**
   * Kysely bound to the open transaction, if any; otherwise to the pool. Typed from the entity
   * schemas (`schema/tables.ts`), so table and column names and row types are checked.
   */
  get db(): Kysely<Tables> {
    return this.orm.em.getKysely<Tables>();
  }

  /** Calls nest: an inner `transaction` joins the outer one (no savepoint). */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.orm.em.transactional(() => work(), { propagation: 'required' });
  }

  /**
   * Fixed SQL with `$n` placeholders, for reads on every request: no builder to run, one round
   * trip, same connection and transaction as every other query. Outside a transaction it goes
   * straight to the pool behind MikroORM's Kysely, doing what Kysely would (take a connection,
   * query, give it back) without its dozen async layers per query, which cost more CPU than the
   * rest of a small request's database work (docs/benchmarks.md, "Server CPU per request").
   */
  select<Row>(sql: string | PreparedSql, params: readonly unknown[]): Promise<Row[]> {
    return this.query(sql, params, 'object') as Promise<Row[]>;
  }

  /**
   * `select` with each row an array of its values in the statement's column order, for the reads
   * of every request whose rows are many or wide. The driver then builds one array per row instead
   * of an object keyed by the column names it decodes afresh from every result (V8 looks each one
   * up in its string table, per row and column), and the caller reads by position. The result
   * columns must have distinct names: inside a transaction the rows come as objects, turned into
   * arrays in their key order.
   */
  selectTuples<Row extends readonly unknown[]>(sql: PreparedSql, params: readonly unknown[]): Promise<Row[]> {
    return this.query(sql, params, 'array') as Promise<Row[]>;
  }

  private async query(sql: string | PreparedSql, params: readonly unknown[], rowMode: 'object' | 'array'): Promise<unknown[]> {
    const em = this.orm.em.getContext(false);
    if (em.getTransactionContext() === undefined) {
      // The pool belongs to the Kysely instance MikroORM holds while connected: a new one after a reconnect.
      const kysely = em.getConnection().getClient();
      const pool = this.direct?.kysely === kysely ? this.direct.pool : await this.poolOf(kysely);
      const client = await pool.connect();
      try {
        // A fresh config each call: the driver writes the values onto the object it is given.
        const config = typeof sql === 'string' ? { text: sql } : rowMode === 'array' ? { name: sql.name, text: sql.text, rowMode } : { name: sql.name, text: sql.text };
        return (await client.query(config, params as unknown[])).rows as unknown[];
      } finally {
        client.release();
      }
    }
    const { rows } = await this.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(typeof sql === 'string' ? sql : sql.text, [...params]));
    return rowMode === 'array' ? rows.map((row) => Object.values(row)) : rows;
  }

  /**
   * `select`, for work no client waits on (settling a copilot call after its answer was sent):
   * while every pooled connection stays busy past the pool's wait limit (`connectMs`, which makes
   * a waiting request answer 503), it asks for one again, up to `patienceMs` in all. Only that
   * wait is retried: the statement was never sent, so it cannot run twice. Anything else, or a
   * wait past `patienceMs`, is thrown as it came.
   */
  async selectPatiently<Row>(sql: string | PreparedSql, params: readonly unknown[], patienceMs = 60_000): Promise<Row[]> {
    const deadline = Date.now() + patienceMs;
    for (;;) {
      try {
        return await this.select<Row>(sql, params);
      } catch (error) {
        if (!isPoolWaitTimeout(error) || Date.now() >= deadline) throw error;
      }
    }
  }

  private direct: { kysely: unknown; pool: Pool } | undefined;

  private async poolOf(kysely: unknown): Promise<Pool> {
    const pool = await this.orm.em.getConnection().getNativeClient();
    this.direct = { kysely, pool };
    return pool;
  }

  /** Fixed SQL that changes rows; returns how many. */
  async run(sql: string, params: readonly unknown[]): Promise<number> {
    return Number((await this.db.executeQuery(CompiledQuery.raw(sql, [...params]))).numAffectedRows ?? 0);
  }

  async ping(): Promise<void> {
    await this.select('select 1', []);
  }

  async close(): Promise<void> {
    await this.orm.close(true);
  }
}
