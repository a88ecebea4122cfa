import type { OneTimeTokenStore, TokenPurpose } from '../../core/accounts/one-time-token-store.port';
import type { InMemoryStore, OneTimeTokenRow } from './in-memory-store';

export class InMemoryOneTimeTokenStore implements OneTimeTokenStore {
  constructor(private readonly store: InMemoryStore) {}

  async issue(input: { userId: number; purpose: TokenPurpose; tokenHash: string; expiresAt: Date }): Promise<void> {
    await this.store.unitOfWork.exclusive(() => {
      // The unique index and the foreign key of the SQL table.
      if (this.byTokenHash(input.tokenHash)) throw new Error('A token with this hash already exists');
      if (!this.store.users.has(input.userId)) throw new Error(`User ${input.userId} does not exist`);
      const row: OneTimeTokenRow = {
        id: this.store.nextId('one_time_token'),
        token_hash: input.tokenHash,
        purpose: input.purpose,
        user_id: input.userId,
        expires_at: new Date(input.expiresAt),
        used_at: null,
        created_at: this.store.now(),
      };
      this.store.oneTimeTokens.set(row.id, row);
    });
  }

  consume(purpose: TokenPurpose, tokenHash: string, now: Date): Promise<number | null> {
    // Check and mark in one synchronous step under the lock: no other consumer can interleave.
    return this.store.unitOfWork.exclusive(() => {
      const token = this.byTokenHash(tokenHash);
      if (!token || token.purpose !== purpose || token.used_at !== null) return null;
      if (!(now.getTime() < token.expires_at.getTime())) return null;
      token.used_at = new Date(now);
      return token.user_id;
    });
  }

  async revokeAll(userId: number, purpose: TokenPurpose): Promise<void> {
    await this.store.unitOfWork.exclusive(() => {
      for (const token of this.store.oneTimeTokens.values()) {
        if (token.user_id === userId && token.purpose === purpose && token.used_at === null) {
          token.used_at = this.store.now();
        }
      }
    });
  }

  private byTokenHash(tokenHash: string): OneTimeTokenRow | undefined {
    for (const token of this.store.oneTimeTokens.values()) if (token.token_hash === tokenHash) return token;
    return undefined;
  }
}
