import type { MfaChallenge, MfaChallengeStore } from '../../core/mfa/mfa-challenge-store.port';
import type { Selectable } from 'kysely';
import type { Database } from './database';
import type { Tables } from './schema/tables';

type ChallengeRow = Pick<Selectable<Tables['mfa_challenge']>, 'id' | 'user_id' | 'expires_at' | 'attempts'>;

// The attempt is counted by the statement that finds the challenge: concurrent requests
// serialize on the row lock, and once `attempts` reaches the maximum none matches any more.
const TAKE_ATTEMPT = `update mfa_challenge set attempts = attempts + 1
   where token_hash = $1 and expires_at > $2 and attempts < $3
   returning id, user_id, expires_at, attempts`;

const PRUNE_EXPIRED = `delete from mfa_challenge where id = any(array(
   select id from mfa_challenge where expires_at < $1 order by expires_at limit $2 for update skip locked))`;

export class PostgresMfaChallengeStore implements MfaChallengeStore {
  constructor(private readonly database: Database) {}

  async create(input: { userId: number; tokenHash: string; createdAt: Date; expiresAt: Date }): Promise<void> {
    await this.database.db
      .insertInto('mfa_challenge')
      .values({ user_id: input.userId, token_hash: input.tokenHash, attempts: 0, created_at: input.createdAt, expires_at: input.expiresAt })
      .execute();
  }

  async takeAttempt(tokenHash: string, now: Date, maxAttempts: number): Promise<MfaChallenge | null> {
    const [row] = await this.database.select<ChallengeRow>(TAKE_ATTEMPT, [tokenHash, now, maxAttempts]);
    if (!row) return null;
    return { id: Number(row.id), userId: row.user_id, expiresAt: new Date(row.expires_at), attempts: row.attempts };
  }

  async consume(id: number): Promise<boolean> {
    const result = await this.database.db.deleteFrom('mfa_challenge').where('id', '=', id).executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number> {
    return this.database.run(PRUNE_EXPIRED, [cutoff, Math.max(0, batchSize)]);
  }
}
