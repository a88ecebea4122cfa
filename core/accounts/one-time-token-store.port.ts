/** `email_link_sign_in`: a link that signs its holder in (see RequestEmailLink). */
export type TokenPurpose = 'verify_email' | 'reset_password' | 'email_link_sign_in';

/**
 * Single-use tokens for email verification, password reset and sign-in links. Only the SHA-256 of the token
 * is stored. Issuing a token for a (user, purpose) does not invalidate older ones; callers
 * that want "latest link wins" call `revokeAll` first.
 */
export interface OneTimeTokenStore {
  issue(input: { userId: number; purpose: TokenPurpose; tokenHash: string; expiresAt: Date }): Promise<void>;
  /**
   * Atomically marks the token used and returns its user id, only if it exists for `purpose`,
   * is unused and `now < expiresAt`. Otherwise returns null and changes nothing. Concurrent
   * consumers of one token: exactly one gets the user id.
   */
  consume(purpose: TokenPurpose, tokenHash: string, now: Date): Promise<number | null>;
  /** Invalidates every unused token of the user for `purpose`. */
  revokeAll(userId: number, purpose: TokenPurpose): Promise<void>;
}
