import type { PasskeyDeviceType } from './passkey';

/** The WebAuthn JSON forms (`PublicKeyCredentialCreationOptionsJSON` and the like), passed through as they are. */
export type WebAuthnJson = Record<string, unknown>;

export interface VerifiedRegistration {
  credentialId: string;
  publicKey: string;
  counter: number;
  deviceType: PasskeyDeviceType;
  backedUp: boolean;
  transports: string[];
}

export interface VerifiedAssertion {
  counter: number;
  backedUp: boolean;
}

/**
 * The WebAuthn relying party: builds ceremony options and verifies what the browser returns,
 * against the configured rp id and origins, with user verification required and ES256/RS256
 * accepted. `challengeMatches` decides whether the challenge the browser signed is the pending
 * one (so only the challenge's hash needs keeping). Every verify answers null for any response
 * that does not verify, whatever the reason; it throws only for unexpected faults.
 */
export interface RelyingParty {
  creationOptions(input: {
    challenge: string;
    userHandle: string;
    userName: string;
    userDisplayName: string;
    exclude: Array<{ credentialId: string; transports: string[] }>;
  }): Promise<WebAuthnJson>;
  verifyRegistration(response: unknown, challengeMatches: (challenge: string) => boolean): Promise<VerifiedRegistration | null>;
  requestOptions(challenge: string): Promise<WebAuthnJson>;
  /** The credential id and user handle an assertion names, before it is verified; null if it is not one. */
  readAssertion(response: unknown): { credentialId: string; userHandle: string | null } | null;
  verifyAssertion(
    response: unknown,
    challengeMatches: (challenge: string) => boolean,
    credential: { credentialId: string; publicKey: string; counter: number; transports: string[] },
  ): Promise<VerifiedAssertion | null>;
}
