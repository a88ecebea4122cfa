import type { RoleName } from '../access/role';

/** The roles a key may hold: any organization role, never `sys_admin`. */
export const API_KEY_ROLES = ['readonly', 'member', 'org_admin'] as const satisfies readonly RoleName[];

export type ApiKeyRole = (typeof API_KEY_ROLES)[number];

/** Every key starts with it, so a leaked key is recognisable (secret scanners, logs). */
export const API_KEY_MARKER = 'tk_';

/** Characters of the key kept in clear and shown in lists, so a person can tell keys apart. */
export const API_KEY_PREFIX_LENGTH = 10;

/** `tk_` then 32 random bytes in base64url (43 characters): the only shape a key can have. */
export const API_KEY_SHAPE = /^tk_[A-Za-z0-9_-]{43}$/;

/**
 * An organization API key as its organization's admins see it. The key itself is never stored,
 * only its SHA-256; `prefix` is its first characters.
 */
export interface ApiKey {
  id: number;
  organizationId: number;
  name: string;
  role: ApiKeyRole;
  prefix: string;
  createdAt: Date;
  /** The member who made it; null once that user is deleted (the key stays: it is the organization's). */
  createdBy: { id: number; email: string } | null;
  /** Null: never expires. */
  expiresAt: Date | null;
  /** Written at most once per activity interval; null until first used. */
  lastUsedAt: Date | null;
}
