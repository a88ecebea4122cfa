import type { Passkey } from './passkey';

export type NewPasskey = Omit<Passkey, 'id' | 'lastUsedAt'>;

/**
 * The users' passkeys. Credential ids are unique across all users; `userId`-scoped methods never
 * touch another user's passkey.
 */
export interface PasskeyRepository {
  /** Null (and nothing stored) when the credential id is already registered, to anyone. */
  create(input: NewPasskey): Promise<Passkey | null>;
  findByCredentialId(credentialId: string): Promise<Passkey | null>;
  /** The user's passkeys, oldest first. */
  listForUser(userId: number): Promise<Passkey[]>;
  /** Null when the user has no passkey with that id. */
  rename(userId: number, passkeyId: number, name: string): Promise<Passkey | null>;
  /** Returns whether one was deleted. */
  delete(userId: number, passkeyId: number): Promise<boolean>;
  /**
   * Records a sign-in: the new counter, backup state and `lastUsedAt`, only while the stored
   * counter is still `expectedCounter` (compare-and-set). Returns whether it wrote: false means
   * a concurrent sign-in with the same credential got there first, and this one must fail.
   */
  recordUse(passkeyId: number, use: { expectedCounter: number; counter: number; backedUp: boolean; at: Date }): Promise<boolean>;
}
