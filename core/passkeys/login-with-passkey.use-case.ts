import { revokePresentedSession } from '../accounts/presented-session';
import type { IssuedSession } from '../accounts/session-issuer';
import type { SessionOrigin } from '../accounts/session-store.port';
import { DomainError } from '../shared/domain-error';
import { takeLiveChallenge } from './pending-challenge';
import type { PasskeysDeps } from './passkeys-deps';

export interface LoginWithPasskeyInput {
  /** The `passkey_challenge` cookie. */
  cookieToken: string | undefined;
  /** The browser's `AuthenticationResponseJSON`, as it came. */
  response: unknown;
  /** The session token the browser already presented, if any: revoked before the new one is issued. */
  presentedToken?: string | undefined;
  origin?: SessionOrigin;
}

const invalid = () => new DomainError('INVALID_CREDENTIALS', 'The passkey sign-in failed');

/**
 * Signs in with a discoverable passkey. The assertion must answer the live challenge of the
 * cookie (used up by this attempt, whatever follows), name a registered credential (and its user
 * handle, when it names one), verify against the stored public key with user verification, and
 * carry a signature counter that moved forward (or stays 0 for authenticators that do not count).
 * Every one of those failures is the same INVALID_CREDENTIALS. Only a verified assertion reveals
 * a suspended account.
 *
 * User verification makes the passkey both factors: no TOTP step follows, and the session is
 * marked as made by a passkey, which satisfies an organization that requires MFA.
 *
 * The session records `login.succeeded`; a failure once the credential is known to belong to an
 * account records `login.failed` in that account's organization, off the request's path.
 */
export class LoginWithPasskey {
  constructor(
    private readonly deps: Pick<PasskeysDeps, 'passkeys' | 'challenges' | 'relyingParty' | 'users' | 'organizations' | 'sessions' | 'sessionIssuer' | 'tokenHasher' | 'clock' | 'failedSignIns'>,
  ) {}

  async execute(input: LoginWithPasskeyInput): Promise<{ userId: number; session: IssuedSession }> {
    if (!input.cookieToken) throw invalid();
    const now = this.deps.clock.now();
    const pending = await takeLiveChallenge(this.deps, { kind: 'login', cookieHash: this.deps.tokenHasher.hash(input.cookieToken) }, now);
    const named = this.deps.relyingParty.readAssertion(input.response);
    if (!pending || !named) throw invalid();
    const passkey = await this.deps.passkeys.findByCredentialId(named.credentialId);
    if (!passkey || (named.userHandle !== null && named.userHandle !== passkey.userHandle)) throw invalid();
    const verified = await this.deps.relyingParty.verifyAssertion(input.response, pending.matches, passkey);
    // A registered credential names its account: a failure from here on is that account's.
    const failed = (reason: 'invalid_credentials' | 'account_suspended') =>
      this.deps.failedSignIns.record({ userId: passkey.userId, method: 'passkey', reason, origin: input.origin });
    if (!verified) {
      failed('invalid_credentials');
      throw invalid();
    }
    const recorded = await this.deps.passkeys.recordUse(passkey.id, { expectedCounter: passkey.counter, counter: verified.counter, backedUp: verified.backedUp, at: now });
    if (!recorded) {
      failed('invalid_credentials');
      throw invalid();
    }
    const user = await this.deps.users.findById(passkey.userId);
    if (!user) throw invalid();
    const organization = await this.deps.organizations.findById(user.organizationId);
    if (user.status !== 'active' || organization?.status !== 'active') {
      failed('account_suspended');
      throw new DomainError('ACCOUNT_SUSPENDED', 'This account is suspended');
    }
    await revokePresentedSession(this.deps, input.presentedToken);
    const session = await this.deps.sessionIssuer.issue(
      { userId: user.id, organizationId: user.organizationId, credentialsVersion: user.credentialsVersion, method: 'passkey' },
      input.origin,
      { viaPasskey: true },
    );
    if (!session) throw invalid();
    return { userId: user.id, session };
  }
}
