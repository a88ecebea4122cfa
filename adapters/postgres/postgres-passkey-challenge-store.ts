import { bindingKey, type ChallengeBinding, type PasskeyChallengeStore, type StoredChallenge } from '../../core/passkeys/passkey-challenge-store.port';
import type { Selectable } from 'kysely';
import type { Database } from './database';
import type { Tables } from './schema/tables';

/** The columns a take returns. */
const TAKEN = ['challenge_hash', 'user_id', 'user_handle', 'expires_at'] as const;
type ChallengeRow = Pick<Selectable<Tables['passkey_challenge']>, (typeof TAKEN)[number]>;

const PUT = `insert into passkey_challenge (binding, challenge_hash, user_id, user_handle, created_at, expires_at)
   values ($1, $2, $3, $4, $5, $6)
   on conflict (binding) do update set challenge_hash = excluded.challenge_hash, user_id = excluded.user_id,
     user_handle = excluded.user_handle, created_at = excluded.created_at, expires_at = excluded.expires_at`;

// DELETE … RETURNING: of concurrent takes of one binding, one gets the row.
const TAKE = `delete from passkey_challenge where binding = $1 returning ${TAKEN.join(', ')}`;

const PRUNE_EXPIRED = `delete from passkey_challenge where id = any(array(
   select id from passkey_challenge where expires_at < $1 order by expires_at limit $2 for update skip locked))`;

export class PostgresPasskeyChallengeStore implements PasskeyChallengeStore {
  constructor(private readonly database: Database) {}

  async put(binding: ChallengeBinding, challenge: StoredChallenge & { createdAt: Date }): Promise<void> {
    await this.database.run(PUT, [bindingKey(binding), challenge.challengeHash, challenge.userId, challenge.userHandle, challenge.createdAt, challenge.expiresAt]);
  }

  async take(binding: ChallengeBinding): Promise<StoredChallenge | null> {
    const [row] = await this.database.select<ChallengeRow>(TAKE, [bindingKey(binding)]);
    if (!row) return null;
    return { challengeHash: row.challenge_hash, userId: row.user_id, userHandle: row.user_handle, expiresAt: new Date(row.expires_at) };
  }

  async pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.database.run(PRUNE_EXPIRED, [cutoff, Math.max(0, batchSize)]);
  }
}
