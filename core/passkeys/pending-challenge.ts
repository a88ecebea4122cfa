import { constantTimeEqual } from '../shared/constant-time-equal';
import type { TokenHasher } from '../accounts/crypto.port';
import type { ChallengeBinding, PasskeyChallengeStore, StoredChallenge } from './passkey-challenge-store.port';

/**
 * Takes the binding's pending challenge (it is gone afterwards, whatever follows: single use)
 * and answers whether it is still live, with the check the relying party applies to the
 * challenge the browser signed: its hash must be the stored one.
 */
export async function takeLiveChallenge(
  deps: { challenges: PasskeyChallengeStore; tokenHasher: TokenHasher },
  binding: ChallengeBinding,
  now: Date,
): Promise<{ stored: StoredChallenge; matches: (challenge: string) => boolean } | null> {
  const stored = await deps.challenges.take(binding);
  if (!stored || now.getTime() >= stored.expiresAt.getTime()) return null;
  return { stored, matches: (challenge) => constantTimeEqual(deps.tokenHasher.hash(challenge), stored.challengeHash) };
}
