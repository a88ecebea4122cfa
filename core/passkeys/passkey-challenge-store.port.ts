/**
 * What a pending WebAuthn ceremony is bound to: the session that asked to register a passkey, or
 * (for a sign-in, where there is no session yet) the hash of the `passkey_challenge` cookie.
 */
export type ChallengeBinding = { kind: 'registration'; sessionId: number } | { kind: 'login'; cookieHash: string };

/** A binding as one string, `session:<id>` or `cookie:<hash>`: how adapters key it. */
export const bindingKey = (binding: ChallengeBinding): string =>
  binding.kind === 'registration' ? `session:${binding.sessionId}` : `cookie:${binding.cookieHash}`;

export interface StoredChallenge {
  /** SHA-256 of the challenge the browser signs: the challenge itself is not kept. */
  challengeHash: string;
  /** The user a registration is for; null for a sign-in. */
  userId: number | null;
  /** The WebAuthn user handle a registration offered; null for a sign-in. */
  userHandle: string | null;
  expiresAt: Date;
}

/**
 * Pending passkey ceremonies, one per binding: putting a new one replaces the old. `take` removes
 * what it returns, so a challenge is answered at most once even by concurrent requests.
 */
export interface PasskeyChallengeStore {
  put(binding: ChallengeBinding, challenge: StoredChallenge & { createdAt: Date }): Promise<void>;
  /** Deletes and returns the binding's challenge (expired ones too: the caller compares `expiresAt`), or null. */
  take(binding: ChallengeBinding): Promise<StoredChallenge | null>;
  /** Deletes up to `batchSize` challenges that expired before `cutoff`; returns how many. */
  pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number>;
}
