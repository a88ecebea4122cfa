import type { IssuedSession, SignIn } from './session-issuer';
import type { SessionOrigin } from './session-store.port';

export interface IssuedChallenge {
  /** The bearer secret of the challenge cookie; only its hash is stored. */
  token: string;
  expiresAt: Date;
}

export type SignInOutcome =
  | { kind: 'session'; userId: number; session: IssuedSession }
  | { kind: 'mfa_required'; userId: number; challenge: IssuedChallenge };

/**
 * The last step of every first-factor sign-in (password or identity provider): a session, or a
 * second-factor challenge for a user who has one. Declared here and implemented by the mfa
 * context, so accounts does not depend on how second factors work.
 */
export interface SignInCompletion {
  /**
   * `signIn.credentialsVersion`: the user's, as read when the first factor was checked. If the
   * password changed (or the user went away) since, no session is made: INVALID_CREDENTIALS. A
   * session made here records `login.succeeded` with `signIn.method`.
   */
  complete(signIn: SignIn, origin?: SessionOrigin): Promise<SignInOutcome>;
}
