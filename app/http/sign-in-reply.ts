import type { Context } from 'koa';
import type { SignInOutcome } from '../../core/accounts/sign-in-completion.port';
import type { Reply } from './route';
import type { MfaChallengeCookie, SessionCookie } from './session-cookie';

/**
 * The answer of a first-factor sign-in (password, email link): the session cookie and
 * `{user_id}`; or, for a user with MFA on, the `mfa_challenge` cookie and `{mfa_required: true}`
 * with no session — and the session cookie the browser presented, revoked by the sign-in, is
 * cleared along with it.
 */
export function signInReply(ctx: Context, outcome: SignInOutcome, cookies: { session: SessionCookie; challenge: MfaChallengeCookie }): Reply {
  if (outcome.kind === 'mfa_required') {
    if (cookies.session.read(ctx)) cookies.session.clear(ctx);
    cookies.challenge.set(ctx, outcome.challenge.token);
    return { status: 200, body: { mfa_required: true } };
  }
  cookies.session.set(ctx, outcome.session.token);
  return { status: 200, body: { user_id: outcome.userId } };
}
