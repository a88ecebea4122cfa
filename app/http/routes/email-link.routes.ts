import { defineRoute, type AnyRoute } from '../route';
import type { MfaChallengeCookie, SessionCookie } from '../session-cookie';
import type { AfterResponse } from '../after-response';
import { signInReply } from '../sign-in-reply';
import { LoginResponse } from '../schemas/security.schemas';
import { EmailRequest, RequiredTokenRequest, SuccessResponse } from '../schemas/account.schemas';
import { sessionOrigin } from '../../../core/accounts/session-issuer';
import type { RequestEmailLink } from '../../../core/accounts/request-email-link.use-case';
import type { VerifyEmailLink } from '../../../core/accounts/verify-email-link.use-case';

export interface EmailLinkUseCases {
  requestEmailLink: RequestEmailLink;
  verifyEmailLink: VerifyEmailLink;
}

/**
 * Sign-in by an emailed link. `enabled` is APP_EMAIL_LINK_SIGNIN: off, both paths answer 404
 * NOT_FOUND before any rate limit, and the description stays the same.
 */
export function emailLinkRoutes(
  useCases: EmailLinkUseCases,
  cookies: { session: SessionCookie; challenge: MfaChallengeCookie },
  options: { enabled: boolean; afterResponse: Pick<AfterResponse, 'run'> },
): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/email-link',
      tag: 'Authentication',
      operationId: 'requestEmailLink',
      summary: 'Email a sign-in link (same answer whether or not the account exists)',
      description:
        "Emails a link to `APP_BASE_WEB_URL/sign-in/email-link?token=…` when an active account has this email; the web page posts its token to `POST /auth/email-link/verify`. The link works once, for 15 minutes, and a newer one voids the older. Answers 202 the same way, in the same time, whatever the email. At most 3 requests an hour per client IP and 3 an hour per email (known or not): 429 `RATE_LIMITED` with `Retry-After`. Answers 404 `NOT_FOUND` when `APP_EMAIL_LINK_SIGNIN=false`.",
      access: 'public',
      enabled: options.enabled,
      rateLimit: { bucket: 'email-link', rule: '3/hour' },
      body: EmailRequest,
      responses: { 202: { description: 'Accepted', schema: SuccessResponse } },
      errors: ['NOT_FOUND'],
      handler: async ({ body }) => {
        const deliver = await useCases.requestEmailLink.execute({ email: body.email });
        // Not awaited: whether a link is written must not show in the response time.
        options.afterResponse.run('request-email-link', deliver);
        return { status: 202, body: { success: true } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/email-link/verify',
      tag: 'Authentication',
      operationId: 'verifyEmailLink',
      summary: 'Sign in with the token of an emailed link; sets the session cookie, or the MFA challenge cookie when the user has MFA',
      description:
        "Takes the `token` of the emailed link. Signs in as `POST /auth/login` does: a new session cookie (a session cookie sent with the request is revoked first), or, with MFA on, `{mfa_required: true}` and the `mfa_challenge` cookie for `POST /auth/mfa/verify`. The email counts as verified from then on. An unknown, used or expired token is 400 `INVALID_TOKEN`; a suspended user or organization 401 `ACCOUNT_SUSPENDED`. Answers 404 `NOT_FOUND` when `APP_EMAIL_LINK_SIGNIN=false`.",
      access: 'public',
      enabled: options.enabled,
      body: RequiredTokenRequest,
      responses: {
        200: {
          description: '`{user_id}`: signed in. `{mfa_required: true}`: go on with `POST /auth/mfa/verify` (no session yet)',
          schema: LoginResponse,
          headers: { 'Set-Cookie': 'The session cookie, or the `mfa_challenge` cookie (both HttpOnly)' },
        },
      },
      errors: ['NOT_FOUND', 'INVALID_TOKEN', 'ACCOUNT_SUSPENDED', 'RATE_LIMITED'],
      handler: async ({ body, ctx, clientIp }) => {
        const outcome = await useCases.verifyEmailLink.execute({
          token: body.token,
          presentedToken: cookies.session.read(ctx),
          origin: sessionOrigin(ctx.get('User-Agent'), clientIp),
        });
        return signInReply(ctx, outcome, cookies);
      },
    }),
  ];
}
