import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import type { RelyingParty, VerifiedAssertion, VerifiedRegistration, WebAuthnJson } from '../../core/passkeys/relying-party.port';

/** ES256 and RS256: what every platform authenticator and security key offers. */
export const SUPPORTED_ALGORITHMS = [-7, -257];
const TIMEOUT_MS = 300_000;

export interface RelyingPartySettings {
  /** Shown by the browser and the authenticator (`APP_NAME`). */
  name: string;
  /** The host the credentials are scoped to. */
  rpId: string;
  /** Origins the browser may report, e.g. `https://app.example.com`. */
  origins: string[];
}

/**
 * The relying party on `@simplewebauthn/server`: it parses CBOR and COSE, checks attestation
 * (`none` accepted, nothing more asked), the rp id hash, the origin, the flags (user presence
 * and verification required), the signature and the counter. Challenges and user handles are
 * base64url strings of 32 random bytes, passed as their bytes, so the options carry them unchanged.
 * The library throws for every response it refuses; those become null here, one answer for all.
 */
export class SimpleWebAuthnRelyingParty implements RelyingParty {
  constructor(private readonly settings: RelyingPartySettings) {}

  async creationOptions(input: Parameters<RelyingParty['creationOptions']>[0]): Promise<WebAuthnJson> {
    const options = await generateRegistrationOptions({
      ...this.ceremony(input.challenge),
      rpName: this.settings.name,
      userName: input.userName,
      userDisplayName: input.userDisplayName,
      userID: isoBase64URL.toBuffer(input.userHandle),
      attestationType: 'none',
      excludeCredentials: input.exclude.map((credential) => ({ id: credential.credentialId, transports: credential.transports as never })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
    });
    return options as unknown as WebAuthnJson;
  }

  verifyRegistration(response: unknown, challengeMatches: (challenge: string) => boolean): Promise<VerifiedRegistration | null> {
    return refusedAsNull(async () => {
      const result = await verifyRegistrationResponse({
        ...this.expected(challengeMatches),
        response: response as RegistrationResponseJSON,
        supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
      });
      if (!result.verified) return null;
      const { credential, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
      return {
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        counter: credential.counter,
        deviceType: credentialDeviceType === 'multiDevice' ? 'multi_device' : 'single_device',
        backedUp: credentialBackedUp,
        transports: credential.transports ?? (response as RegistrationResponseJSON).response?.transports ?? [],
      };
    });
  }

  async requestOptions(challenge: string): Promise<WebAuthnJson> {
    const options = await generateAuthenticationOptions({
      ...this.ceremony(challenge),
      allowCredentials: [],
      userVerification: 'required',
    });
    return options as unknown as WebAuthnJson;
  }

  readAssertion(response: unknown): { credentialId: string; userHandle: string | null } | null {
    const candidate = response as Partial<AuthenticationResponseJSON> | null;
    if (typeof candidate !== 'object' || candidate === null || typeof candidate.id !== 'string' || !isoBase64URL.isBase64URL(candidate.id)) return null;
    const userHandle = candidate.response?.userHandle;
    return { credentialId: candidate.id, userHandle: typeof userHandle === 'string' && userHandle !== '' ? userHandle : null };
  }

  verifyAssertion(
    response: unknown,
    challengeMatches: (challenge: string) => boolean,
    credential: { credentialId: string; publicKey: string; counter: number; transports: string[] },
  ): Promise<VerifiedAssertion | null> {
    return refusedAsNull(async () => {
      const result = await verifyAuthenticationResponse({
        ...this.expected(challengeMatches),
        response: response as AuthenticationResponseJSON,
        credential: { id: credential.credentialId, publicKey: isoBase64URL.toBuffer(credential.publicKey), counter: credential.counter, transports: credential.transports as never },
      });
      if (!result.verified) return null;
      return { counter: result.authenticationInfo.newCounter, backedUp: result.authenticationInfo.credentialBackedUp };
    });
  }

  /** What both ceremonies' options carry: this relying party, the challenge, how long the browser waits. */
  private ceremony(challenge: string) {
    return { rpID: this.settings.rpId, challenge: isoBase64URL.toBuffer(challenge), timeout: TIMEOUT_MS };
  }

  /** What both verifications check: the challenge, the origin, the rp id, and user verification. */
  private expected(challengeMatches: (challenge: string) => boolean) {
    return { expectedChallenge: challengeMatches, expectedOrigin: this.settings.origins, expectedRPID: this.settings.rpId, requireUserVerification: true };
  }
}

/** The library throws for every response it refuses: each refusal is the same null. */
async function refusedAsNull<T>(verify: () => Promise<T | null>): Promise<T | null> {
  try {
    return await verify();
  } catch {
    return null;
  }
}
