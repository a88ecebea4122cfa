import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex, MikroORM } from '@mikro-orm/postgresql';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';

/**
 * The repositories' handle on PostgreSQL. Queries go through MikroORM's knex with bound
 * parameters: lean reads on hot paths, no identity map to pay for. `transaction` keeps the open
 * transaction in AsyncLocalStorage, so every repository call made inside it joins it; this also
 * means a request never asks the (single-connection, embedded) pool for a second connection
 * while it holds the first.
 */
export class Database implements UnitOfWork {
  private readonly current = new AsyncLocalStorage<Knex.Transaction>();

  constructor(readonly orm: MikroORM) {}

  /** The open transaction, if any; otherwise the pool. */
  get db(): Knex {
    return this.current.getStore() ?? this.orm.em.getKnex();
  }

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    return this.orm.em.getKnex().transaction((trx) => this.current.run(trx, work));
  }

  /**
   * A read with fixed SQL, for the hot paths (every authenticated request). It skips knex's query
   * builder and runner, which cost more CPU per request than the rest of the request together
   * (docs/benchmarks.md). Inside a transaction it runs on the transaction's connection.
   */
  async select<Row>(query: FixedQuery, params: readonly unknown[]): Promise<Row[]> {
    const trx = this.current.getStore();
    if (trx) return ((await trx.raw(query.knex, params as Knex.RawBinding[])) as { rows: Row[] }).rows;
    const client = this.orm.em.getKnex().client as unknown as PooledClient;
    const connection = await client.acquireConnection();
    try {
      return (await connection.query<Row>(query.pg, params)).rows;
    } finally {
      await client.releaseConnection(connection);
    }
  }

  async ping(): Promise<void> {
    await this.db.raw('select 1');
  }

  async close(): Promise<void> {
    await this.orm.close(true);
  }
}

interface PooledClient {
  acquireConnection(): Promise<{ query<Row>(sql: string, params: readonly unknown[]): Promise<{ rows: Row[] }> }>;
  releaseConnection(connection: unknown): Promise<void>;
}

/** One statement in both placeholder styles: knex's `?` and PostgreSQL's `$n`. */
export interface FixedQuery {
  knex: string;
  pg: string;
}

/** Prepares `sql` (with `?` placeholders, and no other `?`) once, at module load. */
export function fixedQuery(sql: string): FixedQuery {
  let n = 0;
  return { knex: sql, pg: sql.replace(/\?/g, () => `$${(n += 1)}`) };
}
