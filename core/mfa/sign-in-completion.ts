import type { IssuedSession } from '../accounts/session-issuer';
import type { SessionOrigin } from '../accounts/session-store.port';
import { addSeconds } from '../accounts/accounts-ports';
import { DomainError } from '../shared/domain-error';
import { CHALLENGE_TTL_SECONDS, type MfaDeps } from './mfa-ports';

export interface IssuedChallenge {
  /** The bearer secret of the challenge cookie; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

export type SignInOutcome =
  | { kind: 'session'; userId: number; session: IssuedSession }
  | { kind: 'mfa_required'; userId: number; challenge: IssuedChallenge };

/**
 * The last step of every first-factor sign-in (password or identity provider): a user with a
 * confirmed second factor gets a short-lived challenge instead of a session, and only
 * `VerifyMfa` turns that challenge into a session. While the account's second-factor guesses
 * fill their window, no challenge is issued (TOO_MANY_ATTEMPTS): a new one would only be a
 * way to keep guessing.
 */
export class SignInCompletion {
  constructor(private readonly deps: Pick<MfaDeps, 'mfa' | 'challenges' | 'tokenGenerator' | 'tokenHasher' | 'clock' | 'sessionIssuer' | 'secondFactorThrottle'>) {}

  /**
   * `credentialsVersion`: the user's, as read when the first factor was checked. If the password
   * changed (or the user went away) since, no session is made: INVALID_CREDENTIALS.
   */
  async complete(userId: number, credentialsVersion: number, origin?: SessionOrigin): Promise<SignInOutcome> {
    const factor = await this.deps.mfa.findTotp(userId);
    if (!factor?.confirmedAt) {
      const session = await this.deps.sessionIssuer.issue(userId, credentialsVersion, origin);
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
