import type { SignInCompletion, SignInOutcome } from '../accounts/sign-in-completion.port';
import type { SessionOrigin } from '../accounts/session-store.port';
import type { SignIn } from '../accounts/session-issuer';
import { addSeconds } from '../shared/clock.port';
import { DomainError } from '../shared/domain-error';
import { CHALLENGE_TTL_SECONDS, type MfaDeps } from './mfa-deps';

/**
 * Accounts' SignInCompletion: a user with a confirmed second factor gets a short-lived challenge
 * instead of a session, and only `VerifyMfa` turns that challenge into a session. While the
 * account's second-factor guesses fill their window, no challenge is issued (TOO_MANY_ATTEMPTS):
 * a new one would only be a way to keep guessing.
 */
export class MfaSignInCompletion implements SignInCompletion {
  constructor(private readonly deps: Pick<MfaDeps, 'mfa' | 'challenges' | 'tokenGenerator' | 'tokenHasher' | 'clock' | 'sessionIssuer' | 'secondFactorThrottle'>) {}

  async complete(signIn: SignIn, origin?: SessionOrigin): Promise<SignInOutcome> {
    const { userId } = signIn;
    const factor = await this.deps.mfa.findTotp(userId);
    if (!factor?.confirmedAt) {
      const session = await this.deps.sessionIssuer.issue(signIn, origin);
      if (!session) throw new DomainError('INVALID_CREDENTIALS', 'Invalid email or password');
      return { kind: 'session', userId, session };
    }
    await this.deps.secondFactorThrottle.assertOpen(userId);
    const token = this.deps.tokenGenerator.generate();
    const now = this.deps.clock.now();
    const expiresAt = addSeconds(now, CHALLENGE_TTL_SECONDS);
    await this.deps.challenges.create({ userId, tokenHash: this.deps.tokenHasher.hash(token), createdAt: now, expiresAt });
    return { kind: 'mfa_required', userId, challenge: { token, expiresAt } };
  }
}
