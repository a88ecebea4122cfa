/** What the signed OAuth `state` carries: nothing secret, since it travels in URLs. */
export interface StateClaims {
  /** Random key of the server-side flow (IdpLoginFlowStore holds its hash). */
  flowKey: string;
  /** Hash of the binding value held in the initiating browser's cookie. */
  bindingHash: string;
  /**
   * Hash of the invitation token the sign-in started from (the browser came from an invitation
   * link), if any: the only invitation this sign-in may accept. The hash redeems nothing on its
   * own, and the signature keeps anyone from swapping it.
   */
  invitationHash?: string;
}

export type StateVerification =
  | { valid: true; claims: StateClaims }
  | { valid: false; problem: 'expired' | 'malformed' | 'bad_signature' };

/**
 * Signs and verifies the OAuth `state` with the server's secret. Times come from the caller's
 * Clock, never from the adapter's. Tokens signed for another purpose with the same secret are
 * refused.
 */
export interface StateSigner {
  sign(claims: StateClaims, validity: { issuedAt: Date; expiresAt: Date }): Promise<string>;
  /** Valid while `now < expiresAt` (no leeway). Never rejects for a bad token: reports it. */
  verify(state: string, now: Date): Promise<StateVerification>;
}
