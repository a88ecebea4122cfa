import type { Passkey } from '../../core/passkeys/passkey';
import type { NewPasskey, PasskeyRepository } from '../../core/passkeys/passkey-repository.port';
import { deleteWhere, type InMemoryStore } from './in-memory-store';

/** `passkey`: the domain's Passkey is the row. */
export type PasskeyRow = Passkey;

export class InMemoryPasskeyRepository implements PasskeyRepository {
  private readonly rows;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<PasskeyRow>('passkey');
    const rows = this.rows;
    store.onDeleteUser((userId) => deleteWhere(rows, (row) => row.userId === userId));
  }

  create(input: NewPasskey): Promise<Passkey | null> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.users.has(input.userId)) throw new Error(`User ${input.userId} does not exist`);
      if ([...this.rows.values()].some((row) => row.credentialId === input.credentialId)) return null;
      const row: PasskeyRow = { ...structuredClone(input), id: this.store.nextId('passkey'), lastUsedAt: null };
      this.rows.set(row.id, row);
      return structuredClone(row);
    });
  }

  findByCredentialId(credentialId: string): Promise<Passkey | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = [...this.rows.values()].find((candidate) => candidate.credentialId === credentialId);
      return row ? structuredClone(row) : null;
    });
  }

  listForUser(userId: number): Promise<Passkey[]> {
    return this.store.unitOfWork.exclusive(() =>
      [...this.rows.values()]
        .filter((row) => row.userId === userId)
        .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id)
        .map((row) => structuredClone(row)),
    );
  }

  rename(userId: number, passkeyId: number, name: string): Promise<Passkey | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.rows.get(passkeyId);
      if (!row || row.userId !== userId) return null;
      row.name = name;
      return structuredClone(row);
    });
  }

  delete(userId: number, passkeyId: number): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.rows.get(passkeyId);
      return row !== undefined && row.userId === userId && this.rows.delete(passkeyId);
    });
  }

  recordUse(passkeyId: number, use: { expectedCounter: number; counter: number; backedUp: boolean; at: Date }): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.rows.get(passkeyId);
      if (!row || row.counter !== use.expectedCounter) return false;
      Object.assign(row, { counter: use.counter, backedUp: use.backedUp, lastUsedAt: new Date(use.at) });
      return true;
    });
  }
}
