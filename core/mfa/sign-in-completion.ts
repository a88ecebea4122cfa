import type { IssuedSession } from '../accounts/session-issuer';
import type { SessionOrigin } from '../accounts/session-store.port';
import { addSeconds } from '../accounts/accounts-ports';
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
 * `VerifyMfa` turns that challenge into a session.
 */
export class SignInCompletion {
  constructor(private readonly deps: Pick<MfaDeps, 'mfa' | 'challenges' | 'tokenGenerator' | 'tokenHasher' | 'clock' | 'sessionIssuer'>) {}

  async complete(userId: number, origin?: SessionOrigin): Promise<SignInOutcome> {
    const factor = await this.deps.mfa.findTotp(userId);
    if (!factor?.confirmedAt) return { kind: 'session', userId, session: await this.deps.sessionIssuer.issue(userId, origin) };
    const token = this.deps.tokenGenerator.generate();
    const now = this.deps.clock.now();
    const expiresAt = addSeconds(now, CHALLENGE_TTL_SECONDS);
    await this.deps.challenges.create({ userId, tokenHash: this.deps.tokenHasher.hash(token), createdAt: now, expiresAt });
    return { kind: 'mfa_required', userId, challenge: { token, expiresAt } };
  }
}
