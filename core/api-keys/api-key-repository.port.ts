import type { AccountStatus } from '../accounts/user';
import type { ListWindow } from '../shared/list-page';
import type { ApiKey, ApiKeyRole } from './api-key';

export interface NewApiKey {
  organizationId: number;
  name: string;
  role: ApiKeyRole;
  prefix: string;
  /** SHA-256 of the key, hex (64 characters). */
  keyHash: string;
  createdByUserId: number;
  createdAt: Date;
  expiresAt: Date | null;
}

export type RevokedApiKey = Pick<ApiKey, 'id' | 'name' | 'role'>;

/** What authentication needs to know about a key, read in one lookup. */
export interface ApiKeyPrincipal {
  apiKeyId: number;
  organizationId: number;
  role: ApiKeyRole;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  organizationStatus: AccountStatus;
}

/**
 * Organization API keys. Only the SHA-256 of a key reaches this port. Every method but the
 * lookups by hash and id takes the organization's id and never sees another organization's keys:
 * another organization's key behaves exactly like a missing one. Deleting the organization
 * deletes its keys; deleting the user who made one leaves the key, with `createdBy` null.
 */
export interface ApiKeyRepository {
  /** `lastUsedAt` starts null. The creating user must exist. */
  create(key: NewApiKey): Promise<ApiKey>;
  /**
   * Newest first: `createdAt` descending, then `id` descending. At most `window.limit` keys (all
   * when omitted), strictly after `window.after` in that order. Expired keys are listed too.
   */
  list(organizationId: number, window?: ListWindow): Promise<ApiKey[]>;
  /** Deletes the key for good; returns what it was (id, name, role), or null when the organization had no such key. */
  revoke(organizationId: number, id: number): Promise<RevokedApiKey | null>;
  /** The organization's key with that id, expired ones too; null when revoked or not the organization's. */
  findById(organizationId: number, id: number): Promise<ApiKey | null>;
  /** The key with that hash and its organization's state, or null. Expired keys too: the caller compares `expiresAt`. */
  findByHash(keyHash: string): Promise<ApiKeyPrincipal | null>;
  /**
   * Sets `lastUsedAt = at` only when the stored value is null or before `staleBefore`, so
   * instances that see the same key at once write it once. Returns whether it wrote. Idempotent.
   */
  recordUse(id: number, at: Date, staleBefore: Date): Promise<boolean>;
}
