/**
 * Password hashing. `verify` with a null hash spends the same time as a real comparison and
 * returns false, so an unknown email costs what a wrong password costs. `hash` and `verify` must
 * not block the event loop for the duration of the hash.
 */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(password: string, hash: string | null): Promise<boolean>;
  /** Whether `hash` was made with weaker settings (a lower cost) than `hash` uses today. Cheap: parses only. */
  needsRehash(hash: string): boolean;
}

/** 256-bit random tokens, base64url (43 characters). */
export interface TokenGenerator {
  generate(): string;
}

/** One-way hash for tokens at rest (SHA-256, hex). Deterministic, so lookups are by hash. */
export interface TokenHasher {
  hash(token: string): string;
}

/**
 * Authenticated encryption of short secrets under a key the caller keeps somewhere else than the
 * sealed text, so that reading the store alone reveals nothing. `open` answers null for text that
 * was not sealed under that key, or was altered.
 */
export interface SecretBox {
  seal(plaintext: string, key: string): string;
  open(sealed: string, key: string): string | null;
}
