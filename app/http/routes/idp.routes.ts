import * as v from 'valibot';
import type { Context } from 'koa';
import { defineRoute, type AnyRoute } from '../route';
import { noSuchRoute } from '../http-error';
import { IdpAuthorizeUrlResponse } from '../schemas/account.schemas';
import type { IdpBindingCookie } from '../idp-binding-cookie';
import type { MfaChallengeCookie, SessionCookie } from '../session-cookie';
import { sessionOrigin } from '../../../core/accounts/session-issuer';
import type { StartIdpLogin } from '../../../core/accounts/start-idp-login.use-case';
import type { CompleteIdpLogin, CompleteIdpLoginResult } from '../../../core/accounts/complete-idp-login.use-case';

export interface IdpUseCases {
  start: StartIdpLogin;
  complete: CompleteIdpLogin;
}

export interface IdpRouteDeps {
  bindingCookie: IdpBindingCookie;
  sessionCookie: SessionCookie;
  challengeCookie: MfaChallengeCookie;
  /** APP_BASE_WEB_URL: where every callback ends. */
  baseWebUrl: string;
  /** The redirect URI registered with the provider, i.e. this callback's public address. */
  callbackUrl: string;
}


// Whatever arrives, the callback redirects: a repeated or oversized parameter counts as absent.
// Described without a maxLength, since an over-long value is not refused: it is ignored.
const callbackParameter = v.fallback(
  v.optional(
    v.pipe(
      v.string(),
      v.check((text) => text.length <= 4096),
      v.description('From the identity provider; a repeated value or one over 4096 characters counts as absent'),
    ),
  ),
  undefined,
);
const CallbackQuery = v.looseObject({ code: callbackParameter, state: callbackParameter, error: callbackParameter });

/**
 * `invitation_token`: the token of the invitation link the browser came from, so that a sign-in
 * of an invited address joins that organization and no other.
 */
const AuthorizeQuery = v.object({
  invitation_token: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, 'Must be the token from an invitation link'))),
});

/** Public, but each call stores a flow: bounded per client IP. */
const AUTHORIZE_LIMIT = { bucket: 'idp-authorize', rule: '60/minute' };

/**
 * Without a configured provider (`useCases` undefined) both routes are described but not served:
 * they answer 404 NOT_FOUND, and the description is the same with or without a provider.
 */
export function idpRoutes(configured: IdpUseCases | undefined, deps: IdpRouteDeps): AnyRoute[] {
  const enabled = configured !== undefined;
  const useCases = (): IdpUseCases => {
    if (!configured) throw noSuchRoute();
    return configured;
  };
  return [
    defineRoute({
      method: 'get',
      path: '/auth/oauth/idp/authorize-url',
      tag: 'Authentication',
      operationId: 'getIdpAuthorizeUrl',
      summary: "The identity provider's authorization URL; sets the one-time binding cookie",
      description: "Starts an OpenID Connect login (authorization code with PKCE): send the browser to `authorization_url`. Sets a one-time binding cookie that the callback checks. Answers 404 `NOT_FOUND` when the server has no identity provider (`APP_IDP_CLIENT_ID` and `APP_IDP_CLIENT_SECRET` unset).",
      access: 'public',
      enabled,
      rateLimit: AUTHORIZE_LIMIT,
      query: AuthorizeQuery,
      responses: {
        200: {
          description: 'Send the browser to `authorization_url` within 10 minutes',
          schema: IdpAuthorizeUrlResponse,
          headers: { 'Set-Cookie': 'idp_binding (HttpOnly, SameSite=Lax, Path=/auth/oauth/idp, Max-Age=600)' },
        },
      },
      errors: ['NOT_FOUND', 'SERVICE_UNAVAILABLE'],
      handler: async ({ ctx, query }) => {
        const started = await useCases().start.execute({ invitationToken: query.invitation_token });
        deps.bindingCookie.set(ctx, started.binding, started.maxAgeSeconds);
        return { status: 200, body: { authorization_url: started.authorizationUrl } };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/auth/oauth/idp/callback',
      tag: 'Authentication',
      operationId: 'idpCallback',
      summary: 'Where the identity provider sends the browser back; always answers with a redirect',
      description: "The redirect URI registered with the provider; the browser arrives here, not a client. Always a 302: to `APP_BASE_WEB_URL` with a session cookie, or to `APP_BASE_WEB_URL/login?error=<reason>` with one of `oauth_cancelled`, `oauth_invalid_state`, `oauth_missing_code`, `oauth_email_unverified`, `oauth_signup_closed`, `oauth_failed`. Answers 404 `NOT_FOUND` when the server has no identity provider.",
      access: 'public',
      enabled,
      query: CallbackQuery,
      responses: {
        302: {
          description:
            'To APP_BASE_WEB_URL with a session cookie; to APP_BASE_WEB_URL/mfa with the `mfa_challenge` cookie when the user has MFA; or to APP_BASE_WEB_URL/login?error=<reason>',
          headers: { Location: 'Where the browser goes next', 'Set-Cookie': 'Clears idp_binding; on success, the session or challenge cookie' },
        },
      },
      errors: ['NOT_FOUND'],
      handler: async ({ query, ctx, clientIp }) => {
        const callbackUrl = new URL(deps.callbackUrl);
        callbackUrl.search = ctx.querystring;
        const result = await useCases().complete.execute({
          callbackUrl,
          state: query.state,
          code: query.code,
          error: query.error,
          binding: deps.bindingCookie.read(ctx),
          presentedToken: deps.sessionCookie.read(ctx),
          origin: sessionOrigin(ctx.get('User-Agent'), clientIp),
        });
        deps.bindingCookie.clear(ctx);
        let location = `${deps.baseWebUrl}/login?error=${result.ok ? '' : result.reason}`;
        if (result.ok && result.kind === 'session') {
          deps.sessionCookie.set(ctx, result.session.token);
          location = deps.baseWebUrl;
        } else if (result.ok) {
          // A second factor is due: the web app's /mfa page posts the code to /auth/mfa/verify.
          if (deps.sessionCookie.read(ctx)) deps.sessionCookie.clear(ctx);
          deps.challengeCookie.set(ctx, result.challenge.token);
          location = `${deps.baseWebUrl}/mfa`;
        }
        log(ctx, result);
        ctx.set('Location', location);
        return { status: 302 };
      },
    }),
  ];
}

/** The real cause goes to the log, never to the browser. */
function log(ctx: Context, result: CompleteIdpLoginResult): void {
  if (result.ok) {
    ctx.state.log.info({ user_id: result.userId, outcome: result.outcome, mfa_required: result.kind === 'mfa_required' }, 'identity provider sign-in');
  } else if (result.unexpected !== undefined) {
    ctx.state.log.error({ reason: result.reason, err: result.unexpected }, 'identity provider sign-in failed unexpectedly');
  } else {
    ctx.state.log.warn({ reason: result.reason, cause: result.cause }, 'identity provider sign-in failed');
  }
}
