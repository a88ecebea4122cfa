import type { MfaChallenge, MfaChallengeStore } from '../../core/mfa/mfa-challenge-store.port';
import type { InMemoryStore, MfaChallengeRow } from './in-memory-store';

export class InMemoryMfaChallengeStore implements MfaChallengeStore {
  constructor(private readonly store: InMemoryStore) {}

  async create(input: { userId: number; tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<void> {
    await this.store.unitOfWork.exclusive(() => {
      if (this.byTokenHash(input.tokenHash)) throw new Error('A challenge with this token hash already exists');
      if (!this.store.users.has(input.userId)) throw new Error(`User ${input.userId} does not exist`);
      const id = this.store.nextId('mfa_challenge');
      this.store.mfaChallenges.set(id, {
        id,
        token_hash: input.tokenHash,
        user_id: input.userId,
        attempts: 0,
        created_at: new Date(input.createdAt),
        expires_at: new Date(input.expiresAt),
      });
    });
  }

  takeAttempt(tokenHash: string, now: Date, maxAttempts: number): Promise<MfaChallenge | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.byTokenHash(tokenHash);
      if (!row || now.getTime() >= row.expires_at.getTime() || row.attempts >= maxAttempts) return null;
      row.attempts += 1;
      return { id: row.id, userId: row.user_id, expiresAt: new Date(row.expires_at), attempts: row.attempts };
    });
  }

  consume(id: number): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => this.store.mfaChallenges.delete(id));
  }

  pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.store.unitOfWork.exclusive(() => {
      const expired = [...this.store.mfaChallenges.values()]
        .filter((row) => row.expires_at.getTime() < cutoff.getTime())
        .sort((a, b) => a.expires_at.getTime() - b.expires_at.getTime())
        .slice(0, Math.max(0, batchSize));
      for (const row of expired) this.store.mfaChallenges.delete(row.id);
      return expired.length;
    });
  }

  private byTokenHash(tokenHash: string): MfaChallengeRow | undefined {
    for (const row of this.store.mfaChallenges.values()) if (row.token_hash === tokenHash) return row;
    return undefined;
  }
}
