import { addSeconds } from '../shared/clock.port';
import { PASSKEY_CHALLENGE_TTL_SECONDS } from './passkey';
import type { WebAuthnJson } from './relying-party.port';
import type { PasskeysDeps } from './passkeys-deps';

export interface StartedPasskeyLogin {
  /** Request options for `navigator.credentials.get()`: discoverable credentials, user verification required. */
  options: WebAuthnJson;
  /** The bearer secret of the `passkey_challenge` cookie; only its hash is stored. */
  cookieToken: string;
  expiresAt: Date;
}

/**
 * Opens a passkey sign-in: a fresh challenge, bound to a new cookie (there is no session yet), and
 * options with no `allowCredentials`, so the browser offers whichever of the user's passkeys
 * for this site the authenticator holds.
 */
export class StartPasskeyLogin {
  constructor(private readonly deps: Pick<PasskeysDeps, 'challenges' | 'relyingParty' | 'tokenGenerator' | 'tokenHasher' | 'clock'>) {}

  async execute(): Promise<StartedPasskeyLogin> {
    const challenge = this.deps.tokenGenerator.generate();
    const cookieToken = this.deps.tokenGenerator.generate();
    const now = this.deps.clock.now();
    const expiresAt = addSeconds(now, PASSKEY_CHALLENGE_TTL_SECONDS);
    await this.deps.challenges.put(
      { kind: 'login', cookieHash: this.deps.tokenHasher.hash(cookieToken) },
      { challengeHash: this.deps.tokenHasher.hash(challenge), userId: null, userHandle: null, createdAt: now, expiresAt },
    );
    return { options: await this.deps.relyingParty.requestOptions(challenge), cookieToken, expiresAt };
  }
}
