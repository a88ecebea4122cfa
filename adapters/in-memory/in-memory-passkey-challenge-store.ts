import { bindingKey, type ChallengeBinding, type PasskeyChallengeStore, type StoredChallenge } from '../../core/passkeys/passkey-challenge-store.port';
import { deleteWhere, type InMemoryStore } from './in-memory-store';

/** `passkey_challenge`, keyed by its binding. */
export interface PasskeyChallengeRow extends StoredChallenge {
  createdAt: Date;
}

export class InMemoryPasskeyChallengeStore implements PasskeyChallengeStore {
  private readonly rows;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<PasskeyChallengeRow, string>('passkey_challenge');
    const rows = this.rows;
    store.onDeleteUser((userId) => deleteWhere(rows, (row) => row.userId === userId));
  }

  async put(binding: ChallengeBinding, challenge: StoredChallenge & { createdAt: Date }): Promise<void> {
    await this.store.unitOfWork.exclusive(() => {
      this.rows.set(bindingKey(binding), structuredClone(challenge));
    });
  }

  take(binding: ChallengeBinding): Promise<StoredChallenge | null> {
    return this.store.unitOfWork.exclusive(() => {
      const key = bindingKey(binding);
      const row = this.rows.get(key);
      if (!row) return null;
      this.rows.delete(key);
      return { challengeHash: row.challengeHash, userId: row.userId, userHandle: row.userHandle, expiresAt: new Date(row.expiresAt) };
    });
  }

  pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.store.unitOfWork.exclusive(() => {
      const expired = [...this.rows.entries()]
        .filter(([, row]) => row.expiresAt.getTime() < cutoff.getTime())
        .sort(([, a], [, b]) => a.expiresAt.getTime() - b.expiresAt.getTime())
        .slice(0, Math.max(0, batchSize));
      for (const [key] of expired) this.rows.delete(key);
      return expired.length;
    });
  }
}
