import type { IssuedSession } from '../accounts/session-issuer';
import type { SessionOrigin } from '../accounts/session-store.port';
import { DomainError } from '../shared/domain-error';
import { MAX_CHALLENGE_ATTEMPTS, type MfaDeps } from './mfa-deps';
import { normalizeRecoveryCode } from './recovery-codes';
import { acceptTotpCode } from './totp-code';
import { NO_ORIGIN, userActor } from '../audit/audit-actor';

export interface VerifyMfaInput {
  /** The challenge cookie's value. */
  challengeToken: string | undefined;
  code?: string | undefined;
  recoveryCode?: string | undefined;
  /** A session token the browser already presented: revoked once the new one exists. */
  presentedToken?: string | undefined;
  origin?: SessionOrigin;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const voidChallenge = () => new DomainError('UNAUTHORIZED', 'The sign-in expired or took too many tries; log in again');
const invalidCode = () => new DomainError('INVALID_MFA_CODE', 'The code is wrong or was already used');

/**
 * Second step of a sign-in: a TOTP code or a recovery code against the challenge the first step
 * left in a cookie. Every try is counted before the code is looked at, twice: on the challenge
 * (five, then it is void) and on the account (SecondFactorThrottle: ten per window across all
 * its challenges, then 429), so neither concurrency nor a pile of challenges buys more. A wrong
 * code also counts against the account's login throttle. A TOTP code is accepted once (its step
 * is recorded), a recovery code once (marked used), the challenge once (consumed with the new
 * session, in one transaction, with `mfa.recovery_code_used` when a recovery code was spent and
 * the session's `login.succeeded`). A wrong code records `login.failed` off the request's path.
 */
export class VerifyMfa {
  constructor(
    private readonly deps: Pick<
      MfaDeps,
      | 'users'
      | 'organizations'
      | 'sessions'
      | 'mfa'
      | 'challenges'
      | 'totp'
      | 'atRestEncryption'
      | 'tokenHasher'
      | 'clock'
      | 'unitOfWork'
      | 'sessionIssuer'
      | 'loginThrottle'
      | 'secondFactorThrottle'
      | 'audit'
      | 'failedSignIns'
    >,
  ) {}

  async execute(input: VerifyMfaInput): Promise<{ userId: number; session: IssuedSession }> {
    if (!input.challengeToken || !TOKEN_SHAPE.test(input.challengeToken)) throw voidChallenge();
    const challenge = await this.deps.challenges.takeAttempt(
      this.deps.tokenHasher.hash(input.challengeToken),
      this.deps.clock.now(),
      MAX_CHALLENGE_ATTEMPTS,
    );
    if (!challenge) throw voidChallenge();
    const user = await this.deps.users.findById(challenge.userId);
    const organization = user && (await this.deps.organizations.findById(user.organizationId));
    if (!user || user.status !== 'active' || organization?.status !== 'active') throw voidChallenge();
    await this.deps.secondFactorThrottle.takeGuess(user.id);
    const method = input.recoveryCode !== undefined ? 'recovery_code' : 'totp';
    try {
      const session = await this.deps.unitOfWork.transaction(async () => {
        if (!(await this.secondFactorAccepted(user.id, input))) throw invalidCode();
        if (!(await this.deps.challenges.consume(challenge.id))) throw voidChallenge();
        if (input.presentedToken) {
          const previous = await this.deps.sessions.findByTokenHash(this.deps.tokenHasher.hash(input.presentedToken));
          if (previous) await this.deps.sessions.revoke(previous.sessionId);
        }
        if (method === 'recovery_code') {
          await this.deps.audit.record({
            organizationId: user.organizationId,
            action: 'mfa.recovery_code_used',
            actor: userActor(user.id),
            target: null,
            origin: input.origin ? { ip: input.origin.ip, userAgent: input.origin.userAgent } : NO_ORIGIN,
            details: {},
          });
        }
        // Under the credentials as they are now: the password check is behind us, this is the second factor.
        const session = await this.deps.sessionIssuer.issue(
          { userId: user.id, organizationId: user.organizationId, credentialsVersion: user.credentialsVersion, method },
          input.origin,
        );
        if (!session) throw voidChallenge();
        return session;
      });
      await this.deps.secondFactorThrottle.reset(user.id);
      await this.deps.loginThrottle.reset(user.email);
      return { userId: user.id, session };
    } catch (error) {
      if (error instanceof DomainError && error.code === 'INVALID_MFA_CODE') {
        this.deps.failedSignIns.record({ userId: user.id, organizationId: user.organizationId, method, reason: 'invalid_mfa_code', origin: input.origin });
        await this.deps.loginThrottle.recordFailure(user.email);
      }
      throw error;
    }
  }

  private async secondFactorAccepted(userId: number, input: VerifyMfaInput): Promise<boolean> {
    const factor = await this.deps.mfa.findTotp(userId);
    // TOTP turned off since the first step: the challenge no longer guards anything. Refuse it.
    if (!factor?.confirmedAt) throw voidChallenge();
    if (input.recoveryCode !== undefined) {
      const normalized = normalizeRecoveryCode(input.recoveryCode);
      if (normalized === '') return false;
      return this.deps.mfa.useRecoveryCode(userId, this.deps.tokenHasher.hash(normalized), this.deps.clock.now());
    }
    if (input.code === undefined) return false;
    return acceptTotpCode(this.deps, factor, input.code);
  }
}
