import type { Passkey } from '../../core/passkeys/passkey';
import type { NewPasskey, PasskeyRepository } from '../../core/passkeys/passkey-repository.port';
import { toPasskey } from '../postgres/passkey-rows';
import type { Row } from '../postgres/schema/tables';
import { deleteWhere, type InMemoryStore } from './in-memory-store';

/** `passkey`, as the entity schema declares it. */
export type PasskeyRow = Row<'passkey'>;

export class InMemoryPasskeyRepository implements PasskeyRepository {
  private readonly rows;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<PasskeyRow>('passkey');
    const rows = this.rows;
    store.onDeleteUser((userId) => deleteWhere(rows, (row) => row.user_id === userId));
  }

  create(input: NewPasskey): Promise<Passkey | null> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.users.has(input.userId)) throw new Error(`User ${input.userId} does not exist`);
      if ([...this.rows.values()].some((row) => row.credential_id === input.credentialId)) return null;
      const row: PasskeyRow = {
        id: this.store.nextId('passkey'),
        user_id: input.userId,
        name: input.name,
        credential_id: input.credentialId,
        public_key: input.publicKey,
        sign_count: input.counter,
        user_handle: input.userHandle,
        device_type: input.deviceType,
        backed_up: input.backedUp,
        transports: input.transports.join(','),
        created_at: new Date(input.createdAt),
        last_used_at: null,
      };
      this.rows.set(row.id, row);
      return toPasskey(row);
    });
  }

  findByCredentialId(credentialId: string): Promise<Passkey | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = [...this.rows.values()].find((candidate) => candidate.credential_id === credentialId);
      return row ? toPasskey(row) : null;
    });
  }

  listForUser(userId: number): Promise<Passkey[]> {
    return this.store.unitOfWork.exclusive(() =>
      [...this.rows.values()]
        .filter((row) => row.user_id === userId)
        .sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || a.id - b.id)
        .map(toPasskey),
    );
  }

  rename(userId: number, passkeyId: number, name: string): Promise<Passkey | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.rows.get(passkeyId);
      if (!row || row.user_id !== userId) return null;
      row.name = name;
      return toPasskey(row);
    });
  }

  delete(userId: number, passkeyId: number): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.rows.get(passkeyId);
      return row !== undefined && row.user_id === userId && this.rows.delete(passkeyId);
    });
  }

  recordUse(passkeyId: number, use: { expectedCounter: number; counter: number; backedUp: boolean; at: Date }): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.rows.get(passkeyId);
      if (!row || row.sign_count !== use.expectedCounter) return false;
      Object.assign(row, { sign_count: use.counter, backed_up: use.backedUp, last_used_at: new Date(use.at) });
      return true;
    });
  }
}
