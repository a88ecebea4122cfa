import type { IdpLoginFlow, IdpLoginFlowStore } from '../../core/accounts/idp-login-flow-store.port';
import type { Row } from '../postgres/schema/tables';
import type { InMemoryStore, Table } from './in-memory-store';

/** The `idp_login_flow` row, as the entity schema declares it. */
type IdpLoginFlowRow = Row<'idp_login_flow'>;

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
        flow_key_hash: input.flowKeyHash,
        code_verifier: input.codeVerifier,
        nonce: input.nonce,
        expires_at: new Date(input.expiresAt),
        consumed_at: null,
        created_at: new Date(input.createdAt),
      };
      this.rows.set(row.id, row);
    });
  }

  consume(flowKeyHash: string, now: Date): Promise<IdpLoginFlow | null> {
    // Check and mark in one synchronous step under the lock: no other consumer can interleave.
    return this.store.unitOfWork.exclusive(() => {
      const row = this.byHash(flowKeyHash);
      if (!row || row.consumed_at !== null || row.expires_at.getTime() <= now.getTime()) return null;
      row.consumed_at = new Date(now);
      return { codeVerifier: row.code_verifier, nonce: row.nonce };
    });
  }

  pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.store.unitOfWork.exclusive(() => {
      const expired = [...this.rows.values()]
        .filter((row) => row.expires_at.getTime() < cutoff.getTime())
        .sort((a, b) => a.expires_at.getTime() - b.expires_at.getTime())
        .slice(0, Math.max(0, batchSize));
      for (const row of expired) this.rows.delete(row.id);
      return expired.length;
    });
  }

  private byHash(flowKeyHash: string): IdpLoginFlowRow | undefined {
    for (const row of this.rows.values()) if (row.flow_key_hash === flowKeyHash) return row;
    return undefined;
  }
}
