import type { IdpLoginFlow, IdpLoginFlowStore } from '../../core/accounts/idp-login-flow-store.port';
import type { InMemoryStore, Table } from './in-memory-store';

/** The `idp_login_flow` table's row. */
interface IdpLoginFlowRow extends IdpLoginFlow {
  id: number;
  flowKeyHash: string;
  expiresAt: Date;
  consumedAt: Date | null;
  createdAt: Date;
}

/** Pending sign-ins in the shared InMemoryStore; no foreign keys, so no cascade. */
export class InMemoryIdpLoginFlowStore implements IdpLoginFlowStore {
  private readonly rows: Table<IdpLoginFlowRow>;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<IdpLoginFlowRow>('idp_login_flow');
  }

  async create(input: IdpLoginFlow & { flowKeyHash: string; createdAt: Date; expiresAt: Date }): Promise<void> {
    await this.store.unitOfWork.exclusive(() => {
      if (this.byHash(input.flowKeyHash)) throw new Error('A flow with this key hash already exists');
      const row: IdpLoginFlowRow = {
        id: this.store.nextId('idp_login_flow'),
        flowKeyHash: input.flowKeyHash,
        codeVerifier: input.codeVerifier,
        nonce: input.nonce,
        expiresAt: new Date(input.expiresAt),
        consumedAt: null,
        createdAt: new Date(input.createdAt),
      };
      this.rows.set(row.id, row);
    });
  }

  consume(flowKeyHash: string, now: Date): Promise<IdpLoginFlow | null> {
    // Check and mark in one synchronous step under the lock: no other consumer can interleave.
    return this.store.unitOfWork.exclusive(() => {
      const row = this.byHash(flowKeyHash);
      if (!row || row.consumedAt !== null || row.expiresAt.getTime() <= now.getTime()) return null;
      row.consumedAt = new Date(now);
      return { codeVerifier: row.codeVerifier, nonce: row.nonce };
    });
  }

  pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.store.unitOfWork.exclusive(() => {
      const expired = [...this.rows.values()]
        .filter((row) => row.expiresAt.getTime() < cutoff.getTime())
        .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime())
        .slice(0, Math.max(0, batchSize));
      for (const row of expired) this.rows.delete(row.id);
      return expired.length;
    });
  }

  private byHash(flowKeyHash: string): IdpLoginFlowRow | undefined {
    for (const row of this.rows.values()) if (row.flowKeyHash === flowKeyHash) return row;
    return undefined;
  }
}
