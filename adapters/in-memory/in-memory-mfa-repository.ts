import type { MfaRepository, TotpFactor } from '../../core/mfa/mfa-repository.port';
import { deleteWhere, type InMemoryStore, type UserTotpRow } from './in-memory-store';

const toFactor = (row: UserTotpRow): TotpFactor => ({
  userId: row.user_id,
  sealedSecret: row.sealed_secret,
  confirmedAt: row.confirmed_at ? new Date(row.confirmed_at) : null,
  lastUsedStep: row.last_used_step,
  createdAt: new Date(row.created_at),
});

export class InMemoryMfaRepository implements MfaRepository {
  constructor(private readonly store: InMemoryStore) {}

  findTotp(userId: number): Promise<TotpFactor | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.userTotp.get(userId);
      return row ? toFactor(row) : null;
    });
  }

  saveUnconfirmedTotp(input: { userId: number; sealedSecret: string; createdAt: Date }): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.users.has(input.userId)) throw new Error(`User ${input.userId} does not exist`);
      if (this.store.userTotp.get(input.userId)?.confirmed_at) return false;
      this.store.userTotp.set(input.userId, {
        user_id: input.userId,
        sealed_secret: input.sealedSecret,
        confirmed_at: null,
        last_used_step: null,
        created_at: new Date(input.createdAt),
      });
      return true;
    });
  }

  confirmTotp(input: { userId: number; confirmedAt: Date; step: number; recoveryCodeHashes: string[] }): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.userTotp.get(input.userId);
      if (!row || row.confirmed_at) return false;
      row.confirmed_at = new Date(input.confirmedAt);
      row.last_used_step = input.step;
      deleteWhere(this.store.recoveryCodes, (code) => code.user_id === input.userId);
      for (const codeHash of input.recoveryCodeHashes) {
        const id = this.store.nextId('mfa_recovery_code');
        this.store.recoveryCodes.set(id, { id, user_id: input.userId, code_hash: codeHash, used_at: null });
      }
      return true;
    });
  }

  useTotpStep(userId: number, step: number): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.userTotp.get(userId);
      if (!row?.confirmed_at || (row.last_used_step !== null && row.last_used_step >= step)) return false;
      row.last_used_step = step;
      return true;
    });
  }

  useRecoveryCode(userId: number, codeHash: string, usedAt: Date): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      for (const code of this.store.recoveryCodes.values()) {
        if (code.user_id === userId && code.code_hash === codeHash && code.used_at === null) {
          code.used_at = new Date(usedAt);
          return true;
        }
      }
      return false;
    });
  }

  countUnusedRecoveryCodes(userId: number): Promise<number> {
    return this.store.unitOfWork.exclusive(
      () => [...this.store.recoveryCodes.values()].filter((code) => code.user_id === userId && code.used_at === null).length,
    );
  }

  async removeAll(userId: number): Promise<void> {
    await this.store.unitOfWork.exclusive(() => {
      this.store.userTotp.delete(userId);
      deleteWhere(this.store.recoveryCodes, (code) => code.user_id === userId);
    });
  }
}
