/**
 * Authenticated encryption for secrets the service must read back later (TOTP secrets), under
 * the deployment's encryption key (APP_ENCRYPTION_KEY), which never passes through core. (The
 * accounts `SecretBox` port is the other kind: sealing under a key the caller supplies.) `context` is bound into the ciphertext as associated data: a
 * sealed value opens only with the same context, so a value copied onto another row (another
 * user) is refused rather than silently accepted.
 */
export interface AtRestEncryption {
  seal(plaintext: string, context: string): string;
  /** Throws when the value was altered, sealed under another key, or for another context. */
  open(sealed: string, context: string): string;
}
