/**
 * The secrets of one identity-provider sign-in, kept server-side between redirect and callback.
 * The store receives them sealed (SecretBox, under the flow key it never sees) and treats them as
 * opaque text of up to 128 and 255 characters.
 */
export interface IdpLoginFlow {
  /** PKCE verifier: only its S256 challenge ever leaves the server. */
  codeVerifier: string;
  /** OIDC nonce the ID token must echo. */
  nonce: string;
}

/**
 * Pending sign-ins, keyed by the SHA-256 (hex) of the random flow key carried in the signed
 * `state`; the key itself is never stored. A flow is usable once, while `now < expiresAt`.
 */
export interface IdpLoginFlowStore {
  /** A flow key hash that is already stored rejects (a bug, not a domain error). */
  create(input: IdpLoginFlow & { flowKeyHash: string; createdAt: Date; expiresAt: Date }): Promise<void>;
  /**
   * Atomically marks the flow consumed at `now` and returns its secrets, only if it is neither
   * consumed nor expired at `now`; otherwise returns null and changes nothing. Concurrent
   * consumers of one flow: exactly one gets it.
   */
  consume(flowKeyHash: string, now: Date): Promise<IdpLoginFlow | null>;
  /**
   * Deletes up to `batchSize` flows whose `expiresAt` is before `cutoff`, consumed or not;
   * returns how many. Call repeatedly until it returns less than `batchSize`.
   */
  pruneExpiredBefore(cutoff: Date, batchSize: number): Promise<number>;
}
