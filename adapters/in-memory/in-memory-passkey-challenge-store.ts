import { bindingKey, type ChallengeBinding, type PasskeyChallengeStore, type StoredChallenge } from '../../core/passkeys/passkey-challenge-store.port';
import type { Row } from '../postgres/schema/tables';
import { deleteWhere, type InMemoryStore } from './in-memory-store';

/** `passkey_challenge`, keyed by its binding. */
export type PasskeyChallengeRow = Row<'passkey_challenge'>;

export class InMemoryPasskeyChallengeStore implements PasskeyChallengeStore {
  private readonly rows;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<PasskeyChallengeRow, string>('passkey_challenge');
    const rows = this.rows;
    store.onDeleteUser((userId) => deleteWhere(rows, (row) => row.user_id === userId));
  }

  async put(binding: ChallengeBinding, challenge: StoredChallenge & { createdAt: Date }): Promise<void> {
    await this.store.unitOfWork.exclusive(() => {
      const key = bindingKey(binding);
      // An upsert on the binding, as in SQL: a new ceremony replaces the pending one.
      this.rows.set(key, {
        id: this.rows.get(key)?.id ?? this.store.nextId('passkey_challenge'),
        binding: key,
        challenge_hash: challenge.challengeHash,
        user_id: challenge.userId,
        user_handle: challenge.userHandle,
        created_at: new Date(challenge.createdAt),
        expires_at: new Date(challenge.expiresAt),
      });
    });
  }

  take(binding: ChallengeBinding): Promise<StoredChallenge | null> {
    return this.store.unitOfWork.exclusive(() => {
      const key = bindingKey(binding);
      const row = this.rows.get(key);
      if (!row) return null;
      this.rows.delete(key);
      return { challengeHash: row.challenge_hash, userId: row.user_id, userHandle: row.user_handle, expiresAt: new Date(row.expires_at) };
    });
  }

  pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.store.unitOfWork.exclusive(() => {
      const expired = [...this.rows.entries()]
        .filter(([, row]) => row.expires_at.getTime() < cutoff.getTime())
        .sort(([, a], [, b]) => a.expires_at.getTime() - b.expires_at.getTime())
        .slice(0, Math.max(0, batchSize));
      for (const [key] of expired) this.rows.delete(key);
      return expired.length;
    });
  }
}
