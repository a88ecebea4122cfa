import { defineRoute, type AnyRoute } from '../route';
import type { MfaChallengeCookie, SessionCookie } from '../session-cookie';
import { SuccessResponse, UserIdResponse } from '../schemas/account.schemas';
import { CodeRequest, DisableTotpRequest, RecoveryCodesResponse, TotpSetupResponse, VerifyMfaRequest } from '../schemas/security.schemas';
import { sessionOrigin } from '../../../core/accounts/session-issuer';
import type { SetupTotp } from '../../../core/mfa/setup-totp.use-case';
import type { ConfirmTotp } from '../../../core/mfa/confirm-totp.use-case';
import type { DisableTotp } from '../../../core/mfa/disable-totp.use-case';
import type { VerifyMfa } from '../../../core/mfa/verify-mfa.use-case';

export interface MfaUseCases {
  setupTotp: SetupTotp;
  confirmTotp: ConfirmTotp;
  disableTotp: DisableTotp;
  verifyMfa: VerifyMfa;
}

/**
 * Turning MFA off is counted per user, as `/password/update` is: a stolen session must not guess
 * the password from however many addresses (its failures count in the login throttle too).
 * Verify is per client IP; the account's own bound on guesses is in the use case.
 */
const LIMITS = {
  disable: { bucket: 'mfa-disable', rule: '5/15m', per: 'user' },
  verify: { bucket: 'mfa-verify', rule: '30/15m' },
} as const;

/** TOTP enrolment for the logged-in user, and the second step of a sign-in. */
export function mfaRoutes(useCases: MfaUseCases, cookies: { session: SessionCookie; challenge: MfaChallengeCookie }): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/mfa/totp/setup',
      tag: 'MFA',
      operationId: 'setupTotp',
      summary: 'Start TOTP enrolment: a new secret for the authenticator (replaces an unconfirmed one)',
      description: "Returns a new base32 `secret` and its `otpauth_url` (issuer `tenantkit`) for an authenticator app; nothing is on until `confirmTotp` accepts a code from it. Calling it again replaces an unconfirmed secret. 409 `CONFLICT` when TOTP is already on.",
      access: 'readonly',
      apiKeys: 'refused',
      allowWithoutMfa: true,
      responses: { 200: { description: 'The secret, to scan or type in', schema: TotpSetupResponse } },
      errors: ['CONFLICT'],
      handler: async ({ caller }) => {
        const { secret, otpauthUrl } = await useCases.setupTotp.execute(caller);
        return { status: 200, body: { secret, otpauth_url: otpauthUrl } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/mfa/totp/confirm',
      tag: 'MFA',
      operationId: 'confirmTotp',
      summary: "Turn TOTP on with a current code; returns 10 recovery codes (shown only now) and ends the user's other sessions",
      description: "Turns two-factor authentication on with a current 6-digit code. The answer holds 10 single-use recovery codes, shown only this once; the user's other sessions are revoked. A wrong code is 401 `INVALID_MFA_CODE`.",
      access: 'readonly',
      apiKeys: 'refused',
      allowWithoutMfa: true,
      body: CodeRequest,
      responses: { 200: { description: 'MFA is on', schema: RecoveryCodesResponse } },
      errors: ['INVALID_MFA_CODE', 'CONFLICT'],
      handler: async ({ caller, body }) => {
        const { recoveryCodes } = await useCases.confirmTotp.execute(caller, { code: body.code });
        return { status: 200, body: { recovery_codes: recoveryCodes } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/mfa/totp/disable',
      tag: 'MFA',
      operationId: 'disableTotp',
      summary: 'Turn TOTP off: `password` for accounts with one, else `code`',
      description: "Turns two-factor authentication off. Accounts with a password confirm with `password`; accounts without one (identity provider) with a current `code`. Limited to 5 tries per user per 15 minutes; a wrong password also counts as a failed login of the account, and while login is throttled so is this (429 `RATE_LIMITED`).",
      access: 'readonly',
      apiKeys: 'refused',
      allowWithoutMfa: true,
      rateLimit: LIMITS.disable,
      body: DisableTotpRequest,
      responses: { 200: { description: 'MFA is off', schema: SuccessResponse } },
      errors: ['INVALID_CURRENT_PASSWORD', 'INVALID_MFA_CODE'],
      handler: async ({ caller, body }) => {
        await useCases.disableTotp.execute(caller, { password: body.password, code: body.code });
        return { status: 200, body: { success: true } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/mfa/verify',
      tag: 'MFA',
      operationId: 'verifyMfa',
      summary: 'Second step of a sign-in: a TOTP code or a recovery code against the challenge cookie; sets the session cookie',
      description: "The second step of a login when the user has MFA on: `POST /auth/login` answered `{mfa_required: true}` and set the `mfa_challenge` cookie. Send a TOTP `code` or a `recovery_code`; success sets the session cookie and clears the challenge. A wrong or reused code is 401 `INVALID_MFA_CODE`; after 5 wrong codes the challenge is void (401 `UNAUTHORIZED`). Codes also count per account across all its challenges: after 10 within 15 minutes, 429 `RATE_LIMITED` with `Retry-After`, and a correct password gets no new challenge until the window passes.",
      access: 'public',
      rateLimit: LIMITS.verify,
      body: VerifyMfaRequest,
      responses: {
        200: {
          description: 'Signed in',
          schema: UserIdResponse,
          headers: { 'Set-Cookie': 'The session cookie (HttpOnly); the challenge cookie cleared' },
        },
      },
      errors: ['INVALID_MFA_CODE', 'UNAUTHORIZED'],
      handler: async ({ body, ctx, clientIp }) => {
        const { userId, session } = await useCases.verifyMfa.execute({
          challengeToken: cookies.challenge.read(ctx),
          code: body.code,
          recoveryCode: body.recovery_code,
          presentedToken: cookies.session.read(ctx),
          origin: sessionOrigin(ctx.get('User-Agent'), clientIp),
        });
        cookies.challenge.clear(ctx);
        cookies.session.set(ctx, session.token);
        return { status: 200, body: { user_id: userId } };
      },
    }),
  ];
}
