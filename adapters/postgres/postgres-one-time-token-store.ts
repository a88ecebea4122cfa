import type { OneTimeTokenStore, TokenPurpose } from '../../core/accounts/one-time-token-store.port';
import type { Database } from './database';

export class PostgresOneTimeTokenStore implements OneTimeTokenStore {
  constructor(private readonly database: Database) {}

  async issue(input: { userId: number; purpose: TokenPurpose; tokenHash: string; expiresAt: Date }): Promise<void> {
    await this.database.db
      .insertInto('one_time_token')
      .values({
        user_id: input.userId,
        purpose: input.purpose,
        token_hash: input.tokenHash,
        expires_at: input.expiresAt,
        created_at: this.database.now(),
      })
      .execute();
  }

  async consume(purpose: TokenPurpose, tokenHash: string, now: Date): Promise<number | null> {
    // One statement: the row lock taken by UPDATE makes concurrent consumers queue, and the
    // ones after the winner re-check `used_at is null` and match nothing.
    const row = await this.database.db
      .updateTable('one_time_token')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    return row ? row.user_id : null;
  }

  async revokeAll(userId: number, purpose: TokenPurpose): Promise<void> {
    await this.database.db
      .updateTable('one_time_token')
      .set({ used_at: this.database.now() })
      .where('user_id', '=', userId)
      .where('purpose', '=', purpose)
      .where('used_at', 'is', null)
      .execute();
  }
}
