import type { MfaRepository, TotpFactor } from '../../core/mfa/mfa-repository.port';
import type { Selectable } from 'kysely';
import type { Database } from './database';
import type { Tables } from './schema/tables';

type TotpRow = Selectable<Tables['user_totp']>;

const toFactor = (row: TotpRow): TotpFactor => ({
  userId: row.user_id,
  sealedSecret: row.sealed_secret,
  confirmedAt: row.confirmed_at === null ? null : new Date(row.confirmed_at),
  lastUsedStep: row.last_used_step === null ? null : Number(row.last_used_step),
  createdAt: new Date(row.created_at),
});

// Replaces an unconfirmed factor, never a confirmed one: the WHERE of DO UPDATE is the guard.
const SAVE_UNCONFIRMED = `insert into user_totp (user_id, sealed_secret, confirmed_at, last_used_step, created_at)
   values ($1, $2, null, null, $3)
   on conflict (user_id) do update set sealed_secret = excluded.sealed_secret, created_at = excluded.created_at
   where user_totp.confirmed_at is null`;

// Compare-and-set in one statement: of concurrent requests presenting one step, one updates.
const USE_STEP = `update user_totp set last_used_step = $2
   where user_id = $1 and confirmed_at is not null and (last_used_step is null or last_used_step < $2)`;

// One row, even if the same hash were stored twice; SKIP LOCKED makes a concurrent second use find none.
const USE_RECOVERY_CODE = `update mfa_recovery_code set used_at = $3 where id = (
   select id from mfa_recovery_code where user_id = $1 and code_hash = $2 and used_at is null limit 1 for update skip locked)`;

export class PostgresMfaRepository implements MfaRepository {
  constructor(private readonly database: Database) {}

  async findTotp(userId: number): Promise<TotpFactor | null> {
    const row = (await this.database.db
      .selectFrom('user_totp')
      .select(['user_id', 'sealed_secret', 'confirmed_at', 'last_used_step', 'created_at'])
      .where('user_id', '=', userId)
      .executeTakeFirst()) as TotpRow | undefined;
    return row ? toFactor(row) : null;
  }

  async saveUnconfirmedTotp(input: { userId: number; sealedSecret: string; createdAt: Date }): Promise<boolean> {
    return (await this.database.run(SAVE_UNCONFIRMED, [input.userId, input.sealedSecret, input.createdAt])) > 0;
  }

  confirmTotp(input: { userId: number; confirmedAt: Date; step: number; recoveryCodeHashes: string[] }): Promise<boolean> {
    return this.database.transaction(async () => {
      const confirmed = await this.database.db
        .updateTable('user_totp')
        .set({ confirmed_at: input.confirmedAt, last_used_step: input.step })
        .where('user_id', '=', input.userId)
        .where('confirmed_at', 'is', null)
        .executeTakeFirst();
      if (confirmed.numUpdatedRows === 0n) return false;
      await this.database.db.deleteFrom('mfa_recovery_code').where('user_id', '=', input.userId).execute();
      if (input.recoveryCodeHashes.length > 0) {
        await this.database.db
          .insertInto('mfa_recovery_code')
          .values(input.recoveryCodeHashes.map((codeHash) => ({ user_id: input.userId, code_hash: codeHash, used_at: null })))
          .execute();
      }
      return true;
    });
  }

  async useTotpStep(userId: number, step: number): Promise<boolean> {
    return (await this.database.run(USE_STEP, [userId, step])) > 0;
  }

  async useRecoveryCode(userId: number, codeHash: string, usedAt: Date): Promise<boolean> {
    return (await this.database.run(USE_RECOVERY_CODE, [userId, codeHash, usedAt])) > 0;
  }

  async countUnusedRecoveryCodes(userId: number): Promise<number> {
    const row = (await this.database.db
      .selectFrom('mfa_recovery_code')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirst()) as { count: string | number } | undefined;
    return Number(row?.count ?? 0);
  }

  removeAll(userId: number): Promise<void> {
    return this.database.transaction(async () => {
      await this.database.db.deleteFrom('mfa_recovery_code').where('user_id', '=', userId).execute();
      await this.database.db.deleteFrom('user_totp').where('user_id', '=', userId).execute();
    });
  }
}
