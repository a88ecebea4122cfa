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
 * A registered credential names its account, and from then on the attempt is that account's, as
 * a password login is its email's: the per-account throttle refuses it before anything is
 * verified, a failure counts against the account like a wrong password (so switching to a passkey
 * buys no extra tries), and a completed sign-in clears the failures. An unknown credential names
 * no account: only the per-IP limit counts it.
 *
 * The session records `login.succeeded`; a failure once the credential is known to belong to an
 * account records `login.failed` in that account's organization, off the request's path.
 */
export class LoginWithPasskey {
  constructor(
    private readonly deps: Pick<
      PasskeysDeps,
      'passkeys' | 'challenges' | 'relyingParty' | 'users' | 'organizations' | 'sessions' | 'sessionIssuer' | 'tokenHasher' | 'clock' | 'loginThrottle' | 'failedSignIns'
    >,
  ) {}

  async execute(input: LoginWithPasskeyInput): Promise<{ userId: number; session: IssuedSession }> {
    if (!input.cookieToken) throw invalid();
    const now = this.deps.clock.now();
    const pending = await takeLiveChallenge(this.deps, { kind: 'login', cookieHash: this.deps.tokenHasher.hash(input.cookieToken) }, now);
    const named = this.deps.relyingParty.readAssertion(input.response);
    if (!pending || !named) throw invalid();
    const passkey = await this.deps.passkeys.findByCredentialId(named.credentialId);
    const user = passkey && (await this.deps.users.findById(passkey.userId));
    if (!passkey || !user) throw invalid();
    await this.deps.loginThrottle.assertOpen(user.email);
    const refused = async (): Promise<never> => {
      this.deps.failedSignIns.record({ userId: user.id, organizationId: user.organizationId, method: 'passkey', reason: 'invalid_credentials', origin: input.origin });
      await this.deps.loginThrottle.recordFailure(user.email);
      throw invalid();
    };
    if (named.userHandle !== null && named.userHandle !== passkey.userHandle) return refused();
    const verified = await this.deps.relyingParty.verifyAssertion(input.response, pending.matches, passkey);
    if (!verified) return refused();
    const recorded = await this.deps.passkeys.recordUse(passkey.id, { expectedCounter: passkey.counter, counter: verified.counter, backedUp: verified.backedUp, at: now });
    if (!recorded) return refused();
    const organization = await this.deps.organizations.findById(user.organizationId);
    if (user.status !== 'active' || organization?.status !== 'active') {
      this.deps.failedSignIns.record({ userId: user.id, organizationId: user.organizationId, method: 'passkey', reason: 'account_suspended', origin: input.origin });
      throw new DomainError('ACCOUNT_SUSPENDED', 'This account is suspended');
    }
    await revokePresentedSession(this.deps, input.presentedToken);
    const session = await this.deps.sessionIssuer.issue(
      { userId: user.id, organizationId: user.organizationId, credentialsVersion: user.credentialsVersion, method: 'passkey' },
      input.origin,
      { viaPasskey: true },
    );
    if (!session) throw invalid();
    await this.deps.loginThrottle.reset(user.email);
    return { userId: user.id, session };
  }
}
