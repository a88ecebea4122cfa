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

  async ping(): Promise<void> {
    await this.db.raw('select 1');
  }

  async close(): Promise<void> {
    await this.orm.close(true);
  }
}
