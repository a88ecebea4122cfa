import { AsyncLocalStorage } from 'node:async_hooks';
import type { UnitOfWork } from '../../core/shared/unit-of-work.port';
import type { InMemoryStore } from './in-memory-store';

/**
 * Transactions over an InMemoryStore. One lock serializes them; the AsyncLocalStorage marks the
 * async context that holds it, so a nested `transaction` (or a repository call) inside the work
 * joins instead of waiting for itself. A failed transaction restores the snapshot taken when the
 * outermost one started (a full copy: cheap at the sizes of tests and demos, which is what this
 * store is for).
 *
 * Repository calls made outside any transaction also take the lock (`exclusive`), as an
 * autocommit statement would: they never see a transaction's uncommitted writes, and a rollback
 * never erases a write that was made meanwhile.
 */
export class InMemoryUnitOfWork implements UnitOfWork {
  private readonly holder = new AsyncLocalStorage<true>();
  private tail: Promise<void> = Promise.resolve();

  constructor(private readonly store: InMemoryStore) {}

  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.holder.getStore()) return work();
    return this.locked(async () => {
      const snapshot = this.store.snapshot();
      try {
        return await this.holder.run(true, work);
      } catch (error) {
        this.store.restore(snapshot);
        throw error;
      }
    });
  }

  /** Runs one synchronous repository operation atomically, joining the open transaction if any. */
  async exclusive<T>(operation: () => T): Promise<T> {
    if (this.holder.getStore()) return operation();
    return this.locked(async () => operation());
  }

  private async locked<T>(critical: () => Promise<T>): Promise<T> {
    const previous = this.tail;
    let release!: () => void;
    this.tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    try {
      return await critical();
    } finally {
      release();
    }
  }
}
