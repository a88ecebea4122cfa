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
      rpName: this.settings.name,
      rpID: this.settings.rpId,
      userName: input.userName,
      userDisplayName: input.userDisplayName,
      userID: isoBase64URL.toBuffer(input.userHandle),
      challenge: isoBase64URL.toBuffer(input.challenge),
      timeout: TIMEOUT_MS,
      attestationType: 'none',
      excludeCredentials: input.exclude.map((credential) => ({ id: credential.credentialId, transports: credential.transports as never })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
    });
    return options as unknown as WebAuthnJson;
  }

  async verifyRegistration(response: unknown, challengeMatches: (challenge: string) => boolean): Promise<VerifiedRegistration | null> {
    try {
      const result = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: challengeMatches,
        expectedOrigin: this.settings.origins,
        expectedRPID: this.settings.rpId,
        requireUserVerification: true,
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
    } catch {
      return null;
    }
  }

  async requestOptions(challenge: string): Promise<WebAuthnJson> {
    const options = await generateAuthenticationOptions({
      rpID: this.settings.rpId,
      challenge: isoBase64URL.toBuffer(challenge),
      timeout: TIMEOUT_MS,
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

  async verifyAssertion(
    response: unknown,
    challengeMatches: (challenge: string) => boolean,
    credential: { credentialId: string; publicKey: string; counter: number; transports: string[] },
  ): Promise<VerifiedAssertion | null> {
    try {
      const result = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: challengeMatches,
        expectedOrigin: this.settings.origins,
        expectedRPID: this.settings.rpId,
        credential: { id: credential.credentialId, publicKey: isoBase64URL.toBuffer(credential.publicKey), counter: credential.counter, transports: credential.transports as never },
        requireUserVerification: true,
      });
      if (!result.verified) return null;
      return { counter: result.authenticationInfo.newCounter, backedUp: result.authenticationInfo.credentialBackedUp };
    } catch {
      return null;
    }
  }
}
