import type { MfaRepository, TotpFactor } from '../../core/mfa/mfa-repository.port';
import { deleteWhere, type InMemoryStore, type UserTotpRow } from './in-memory-store';

const toFactor = (row: UserTotpRow): TotpFactor => ({
  userId: row.userId,
  sealedSecret: row.sealedSecret,
  confirmedAt: row.confirmedAt ? new Date(row.confirmedAt) : null,
  lastUsedStep: row.lastUsedStep,
  createdAt: new Date(row.createdAt),
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
      if (this.store.userTotp.get(input.userId)?.confirmedAt) return false;
      this.store.userTotp.set(input.userId, {
        userId: input.userId,
        sealedSecret: input.sealedSecret,
        confirmedAt: null,
        lastUsedStep: null,
        createdAt: new Date(input.createdAt),
      });
      return true;
    });
  }

  confirmTotp(input: { userId: number; confirmedAt: Date; step: number; recoveryCodeHashes: string[] }): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.userTotp.get(input.userId);
      if (!row || row.confirmedAt) return false;
      row.confirmedAt = new Date(input.confirmedAt);
      row.lastUsedStep = input.step;
      deleteWhere(this.store.recoveryCodes, (code) => code.userId === input.userId);
      for (const codeHash of input.recoveryCodeHashes) {
        const id = this.store.nextId('mfa_recovery_code');
        this.store.recoveryCodes.set(id, { id, userId: input.userId, codeHash, usedAt: null });
      }
      return true;
    });
  }

  useTotpStep(userId: number, step: number): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.store.userTotp.get(userId);
      if (!row?.confirmedAt || (row.lastUsedStep !== null && row.lastUsedStep >= step)) return false;
      row.lastUsedStep = step;
      return true;
    });
  }

  useRecoveryCode(userId: number, codeHash: string, usedAt: Date): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      for (const code of this.store.recoveryCodes.values()) {
        if (code.userId === userId && code.codeHash === codeHash && code.usedAt === null) {
          code.usedAt = new Date(usedAt);
          return true;
        }
      }
      return false;
    });
  }

  countUnusedRecoveryCodes(userId: number): Promise<number> {
    return this.store.unitOfWork.exclusive(
      () => [...this.store.recoveryCodes.values()].filter((code) => code.userId === userId && code.usedAt === null).length,
    );
  }

  async removeAll(userId: number): Promise<void> {
    await this.store.unitOfWork.exclusive(() => {
      this.store.userTotp.delete(userId);
      deleteWhere(this.store.recoveryCodes, (code) => code.userId === userId);
    });
  }
}
