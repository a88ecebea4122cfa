import { revokePresentedSession } from './presented-session';
import { DomainError } from '../shared/domain-error';
import type { SignInOutcome } from './sign-in-completion.port';
import type { AccountsDeps } from './accounts-deps';
import type { SessionOrigin } from './session-store.port';
import { normalizeEmail, type User } from './user';
import type { SignInFailureReason } from './failed-sign-ins';

export interface LoginInput {
  email: string;
  password: string;
  /** The session token the browser already presented, if any: revoked before the new one is issued. */
  presentedToken?: string | undefined;
  origin?: SessionOrigin;
}

/**
 * Email + password login. The password is checked first, and an unknown email spends the same
 * hashing time, so neither the answer nor its timing tells whether the account exists. Only a
 * correct password reveals suspension or an unverified email. Every login gets a new token; a
 * user with a second factor gets a challenge instead (see SignInCompletion).
 *
 * Before any of that, the per-account throttle: once an email has collected its failures it is
 * refused outright, without a lookup or a hash, whether or not an account has that email. A
 * completed login clears its failures; a hash made at a lower cost than today's is upgraded.
 * The session is created only if the password checked is still the account's and the account
 * still exists: a reset, a password change or a removal that lands while the hash is being
 * compared leaves this login with INVALID_CREDENTIALS, not a session.
 *
 * A session records `login.succeeded` with it (SessionIssuer). A failure of an existing account
 * (wrong password, suspended, unverified) records `login.failed` off the request's path
 * (FailedSignIns), so a known email answers no slower than an unknown one, which records nothing.
 */
export class Login {
  constructor(
    private readonly deps: Pick<
      AccountsDeps,
      'users' | 'organizations' | 'sessions' | 'passwordHasher' | 'tokenHasher' | 'loginThrottle' | 'signInCompletion' | 'failedSignIns'
    >,
  ) {}

  async execute(input: LoginInput): Promise<SignInOutcome> {
    const email = normalizeEmail(input.email);
    await this.deps.loginThrottle.assertOpen(email);
    const user = await this.deps.users.findByEmail(email);
    const passwordOk = await this.deps.passwordHasher.verify(input.password, user?.passwordHash ?? null);
    if (!user || !passwordOk) {
      if (user) this.failed(user, 'invalid_credentials', input);
      await this.deps.loginThrottle.recordFailure(email);
      throw new DomainError('INVALID_CREDENTIALS', 'Invalid email or password');
    }
    const organization = await this.deps.organizations.findById(user.organizationId);
    if (user.status !== 'active' || organization?.status !== 'active') {
      this.failed(user, 'account_suspended', input);
      throw new DomainError('ACCOUNT_SUSPENDED', 'This account is suspended');
    }
    if (!user.emailVerified) {
      this.failed(user, 'email_not_verified', input);
      throw new DomainError('EMAIL_NOT_VERIFIED', 'Verify your email address before logging in');
    }
    await this.upgradeHash(user, input.password);
    await revokePresentedSession(this.deps, input.presentedToken);
    const outcome = await this.deps.signInCompletion.complete(
      { userId: user.id, organizationId: user.organizationId, credentialsVersion: user.credentialsVersion, method: 'password' },
      input.origin,
    );
    if (outcome.kind === 'session') await this.deps.loginThrottle.reset(email);
    return outcome;
  }

  private failed(user: User, reason: SignInFailureReason, input: LoginInput): void {
    this.deps.failedSignIns.record({ userId: user.id, organizationId: user.organizationId, method: 'password', reason, origin: input.origin });
  }

  /**
   * Rehashes at today's cost. Compare-and-set on the old hash: a password reset that landed
   * while this login was hashing wins, and is never overwritten with the old password.
   */
  private async upgradeHash(user: User, password: string): Promise<void> {
    if (user.passwordHash === null || !this.deps.passwordHasher.needsRehash(user.passwordHash)) return;
    const upgraded = await this.deps.passwordHasher.hash(password);
    await this.deps.users.replacePasswordHash(user.id, user.passwordHash, upgraded);
  }
}
