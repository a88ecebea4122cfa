import type { IdpLoginFlow, IdpLoginFlowStore } from '../../core/accounts/idp-login-flow-store.port';
import type { Database } from './database';

export class PostgresIdpLoginFlowStore implements IdpLoginFlowStore {
  constructor(private readonly database: Database) {}

  async create(input: IdpLoginFlow & { flowKeyHash: string; createdAt: Date; expiresAt: Date }): Promise<void> {
    await this.database.db
      .insertInto('idp_login_flow')
      .values({
        flow_key_hash: input.flowKeyHash,
      code_verifier: input.codeVerifier,
      nonce: input.nonce,
      created_at: input.createdAt,
        expires_at: input.expiresAt,
      })
      .execute();
  }

  async consume(flowKeyHash: string, now: Date): Promise<IdpLoginFlow | null> {
    // One statement: the row lock taken by UPDATE queues concurrent callbacks, and the ones
    // after the winner re-check `consumed_at is null` and match nothing.
    const row = await this.database.db
      .updateTable('idp_login_flow')
      .set({ consumed_at: now })
      .where('flow_key_hash', '=', flowKeyHash)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', now)
      .returning(['code_verifier', 'nonce'])
      .executeTakeFirst();
    return row ? { codeVerifier: row.code_verifier, nonce: row.nonce } : null;
  }

  async pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number> {
    const db = this.database.db;
    // A bounded batch along the expires_at index; `skip locked` lets concurrent starts share the work.
    const batch = db
      .selectFrom('idp_login_flow')
      .select('id')
      .where('expires_at', '<', cutoff)
      .orderBy('expires_at')
      .limit(Math.max(0, batchSize))
      .forUpdate()
      .skipLocked();
    const result = await db.deleteFrom('idp_login_flow').where('id', 'in', batch).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
