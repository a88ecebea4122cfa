/** A pending second-factor step of a sign-in whose first factor succeeded. */
export interface MfaChallenge {
  id: number;
  userId: number;
  expiresAt: Date;
  /** Attempts taken so far, this one included (see `takeAttempt`). */
  attempts: number;
}

/**
 * Sign-in challenges awaiting a second factor. Like sessions, only the SHA-256 of the challenge
 * token is stored. A challenge is usable while `now < expiresAt` and attempts remain.
 */
export interface MfaChallengeStore {
  create(input: { userId: number; tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<void>;
  /**
   * Atomically counts one attempt on the live challenge with that hash, if it has taken fewer
   * than `maxAttempts`, and returns it; null when there is none, it expired, or its attempts are
   * spent. Concurrent requests therefore never get more than `maxAttempts` tries between them.
   */
  takeAttempt(tokenHash: string, now: Date, maxAttempts: number): Promise<MfaChallenge | null>;
  /** Deletes the challenge; returns whether this call did (a challenge is completed once). */
  consume(id: number): Promise<boolean>;
  /** Deletes up to `batchSize` challenges that expired before `cutoff`; returns how many. */
  pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number>;
}
