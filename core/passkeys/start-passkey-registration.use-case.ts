import type { UserCaller } from '../access/caller';
import { addSeconds } from '../shared/clock.port';
import { DomainError } from '../shared/domain-error';
import { PASSKEY_CHALLENGE_TTL_SECONDS } from './passkey';
import type { WebAuthnJson } from './relying-party.port';
import type { PasskeysDeps } from './passkeys-deps';

/**
 * Creation options for a new passkey of the caller: a fresh challenge bound to the caller's
 * session (replacing one it asked for before), and the caller's passkeys as `excludeCredentials`
 * so an authenticator does not register twice. The WebAuthn user handle is random, the same for
 * all of a user's passkeys (an authenticator keeps one credential per handle), and says nothing
 * of the user's id or email.
 */
export class StartPasskeyRegistration {
  constructor(private readonly deps: Pick<PasskeysDeps, 'passkeys' | 'challenges' | 'relyingParty' | 'users' | 'tokenGenerator' | 'tokenHasher' | 'clock'>) {}

  async execute(caller: UserCaller): Promise<WebAuthnJson> {
    const user = await this.deps.users.findById(caller.userId);
    if (!user) throw new DomainError('UNAUTHORIZED', 'Authentication required');
    const existing = await this.deps.passkeys.listForUser(user.id);
    const userHandle = existing[0]?.userHandle ?? this.deps.tokenGenerator.generate();
    const challenge = this.deps.tokenGenerator.generate();
    const now = this.deps.clock.now();
    await this.deps.challenges.put(
      { kind: 'registration', sessionId: caller.sessionId },
      { challengeHash: this.deps.tokenHasher.hash(challenge), userId: user.id, userHandle, createdAt: now, expiresAt: addSeconds(now, PASSKEY_CHALLENGE_TTL_SECONDS) },
    );
    const displayName = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.email;
    return this.deps.relyingParty.creationOptions({
      challenge,
      userHandle,
      userName: user.email,
      userDisplayName: displayName,
      exclude: existing.map((passkey) => ({ credentialId: passkey.credentialId, transports: passkey.transports })),
    });
  }
}
