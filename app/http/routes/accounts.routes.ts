import { defineRoute, NEW_MEMBER_LOCATION, type AnyRoute } from '../route';
import type { MfaChallengeCookie, SessionCookie } from '../session-cookie';
import type { AfterResponse } from '../after-response';
import { signInReply } from '../sign-in-reply';
import { LoginResponse } from '../schemas/security.schemas';
import { sessionOrigin } from '../../../core/accounts/session-issuer';
import {
  CurrentUserResponse,
  EmailRequest,
  LoginRequest,
  ResetPasswordRequest,
  SignupOrgRequest,
  SignupRequest,
  SuccessResponse,
  TokenQuery,
  TokenRequest,
  UpdateCurrentUserRequest,
  UpdatePasswordRequest,
  UserIdResponse,
} from '../schemas/account.schemas';
import { roleView } from '../../../core/access/role';
import { DomainError } from '../../../core/shared/domain-error';
import type { Signup } from '../../../core/accounts/signup.use-case';
import type { SignupOrganization } from '../../../core/accounts/signup-organization.use-case';
import type { VerifyEmail } from '../../../core/accounts/verify-email.use-case';
import type { ResendVerification } from '../../../core/accounts/resend-verification.use-case';
import type { Login } from '../../../core/accounts/login.use-case';
import type { Logout } from '../../../core/accounts/logout.use-case';
import type { ForgotPassword } from '../../../core/accounts/forgot-password.use-case';
import type { ResetPassword } from '../../../core/accounts/reset-password.use-case';
import type { UpdatePassword } from '../../../core/accounts/update-password.use-case';
import type { CurrentUser, GetCurrentUser } from '../../../core/accounts/get-current-user.use-case';
import type { UpdateProfile } from '../../../core/accounts/update-profile.use-case';

export interface AccountUseCases {
  signup: Signup;
  signupOrganization: SignupOrganization;
  verifyEmail: VerifyEmail;
  resendVerification: ResendVerification;
  login: Login;
  logout: Logout;
  forgotPassword: ForgotPassword;
  resetPassword: ResetPassword;
  updatePassword: UpdatePassword;
  getCurrentUser: GetCurrentUser;
  updateProfile: UpdateProfile;
}

/** The `/users/me` shape, answered by its GET and its PUT alike. */
function currentUserView({ user, organization }: CurrentUser) {
  return {
    id: user.id,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    email_verified: user.emailVerified,
    has_password: user.passwordHash !== null,
    organization_id: organization.id,
    organization_name: organization.name,
    role: roleView(user.role),
    created_at: user.createdAt.toISOString(),
  };
}

const success = { success: true } as const;

/**
 * Per client IP; both signup routes share one counter, so switching route buys no extra tries. `/password/update` is
 * counted per user, as login is per IP: a stolen session must not be a way to brute-force the
 * current password, from however many addresses.
 */
const LIMITS = {
  signup: { bucket: 'signup', rule: '3/hour' },
  login: { bucket: 'login', rule: '5/15m' },
  forgot: { bucket: 'password-forgot', rule: '3/hour' },
  resend: { bucket: 'resend-verification', rule: '10/minute' },
  updatePassword: { bucket: 'password-update', rule: '5/15m', per: 'user' },
} as const;

/**
 * `signupOpen` is false in B2B mode: the signup routes are then not served (`enabled: false`),
 * so every method on them answers 404 NOT_FOUND before any rate limit, while the description
 * keeps them, the same in both modes. (The use cases refuse B2B signups too, as a second line.)
 */
export function accountRoutes(
  useCases: AccountUseCases,
  cookie: SessionCookie,
  challengeCookie: MfaChallengeCookie,
  options: { signupOpen: boolean; afterResponse: Pick<AfterResponse, 'run'> },
): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/signup',
      tag: 'Authentication',
      operationId: 'signup',
      summary: 'Create an account with a personal organization (B2C only)',
      description: "Creates an unverified user and a personal organization with the user as its `org_admin`, then emails a verification link (with the `stub` mailer, the email is written to the server log). Logging in needs the link's token accepted by `POST /auth/verify-email` first. Answers 404 `NOT_FOUND` in B2B mode (`APP_MODE=b2b`), where invitations are the only way in.",
      access: 'public',
      enabled: options.signupOpen,
      rateLimit: LIMITS.signup,
      body: SignupRequest,
      responses: {
        201: { description: 'Account created; a verification email is on its way', schema: UserIdResponse, headers: { Location: NEW_MEMBER_LOCATION } },
      },
      errors: ['NOT_FOUND', 'EMAIL_ALREADY_EXISTS'],
      handler: async ({ body, ctx }) => {
        const { userId } = await useCases.signup.execute({
          email: body.email,
          password: body.password,
          firstName: body.first_name,
          lastName: body.last_name,
        });
        ctx.set('Location', `/members/${userId}`);
        return { status: 201, body: { user_id: userId } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/signup-org',
      tag: 'Authentication',
      operationId: 'signupOrg',
      summary: 'Create an account with a named organization (B2C only)',
      description: "Like `signup`, with a named organization (`organization_name`) instead of a personal one; both share one rate-limit counter. Answers 404 `NOT_FOUND` in B2B mode.",
      access: 'public',
      enabled: options.signupOpen,
      rateLimit: LIMITS.signup,
      body: SignupOrgRequest,
      responses: { 201: { description: 'Account and organization created', schema: UserIdResponse, headers: { Location: NEW_MEMBER_LOCATION } } },
      errors: ['NOT_FOUND', 'EMAIL_ALREADY_EXISTS'],
      handler: async ({ body, ctx }) => {
        const { userId } = await useCases.signupOrganization.execute({
          email: body.email,
          password: body.password,
          firstName: body.first_name,
          lastName: body.last_name,
          organizationName: body.organization_name,
        });
        ctx.set('Location', `/members/${userId}`);
        return { status: 201, body: { user_id: userId } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/verify-email',
      tag: 'Authentication',
      operationId: 'verifyEmail',
      summary: 'Mark the email verified with the emailed token',
      description:
        "Takes the `token` from the emailed link (`…/verify-email?token=…`) in the body, or in the query string for a page that posts the link as it is (`POST /auth/verify-email?token=…` with no body); a token in the body wins. The query string is never logged. A token is single-use and lasts 24 hours; a used, expired or unknown one is 400 `INVALID_TOKEN`.",
      access: 'public',
      body: TokenRequest,
      bodyOptional: true,
      query: TokenQuery,
      responses: { 200: { description: 'Email verified', schema: SuccessResponse } },
      errors: ['INVALID_TOKEN'],
      handler: async ({ body, query }) => {
        const token = body.token ?? query.token;
        if (token === undefined) throw new DomainError('VALIDATION_ERROR', 'The request is invalid', { 'body.token': 'Required' });
        await useCases.verifyEmail.execute({ token });
        return { status: 200, body: success };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/resend-verification',
      tag: 'Authentication',
      operationId: 'resendVerification',
      summary: 'Email a fresh verification link (same answer whether or not the account exists)',
      description: "Emails a fresh verification link to an existing, unverified account. Answers 202 the same way whatever the email, so it does not tell who has an account.",
      access: 'public',
      rateLimit: LIMITS.resend,
      body: EmailRequest,
      responses: { 202: { description: 'Accepted', schema: SuccessResponse } },
      handler: async ({ body }) => {
        // Not awaited: whether an email is written must not show in the response time.
        options.afterResponse.run('resend-verification', () => useCases.resendVerification.execute({ email: body.email }));
        return { status: 202, body: success };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/login',
      tag: 'Authentication',
      operationId: 'login',
      summary: 'Log in with email and password; sets the session cookie, or the MFA challenge cookie when the user has MFA',
      description:
        "The password is checked first: only a correct password reveals `EMAIL_NOT_VERIFIED` or `ACCOUNT_SUSPENDED`; an unknown email and a wrong password both answer 401 `INVALID_CREDENTIALS`, in the same time. Every login sets a new session cookie (a session cookie sent with the request is revoked first); with MFA on, it answers `{mfa_required: true}` and sets the `mfa_challenge` cookie instead, for `POST /auth/mfa/verify`.",
      access: 'public',
      rateLimit: LIMITS.login,
      body: LoginRequest,
      responses: {
        200: {
          description: '`{user_id}`: logged in. `{mfa_required: true}`: go on with `POST /auth/mfa/verify` (no session yet)',
          schema: LoginResponse,
          headers: { 'Set-Cookie': 'The session cookie, or the `mfa_challenge` cookie (both HttpOnly)' },
        },
      },
      errors: ['INVALID_CREDENTIALS', 'ACCOUNT_SUSPENDED', 'EMAIL_NOT_VERIFIED'],
      handler: async ({ body, ctx, clientIp }) => {
        const outcome = await useCases.login.execute({
          email: body.email,
          password: body.password,
          presentedToken: cookie.read(ctx),
          origin: sessionOrigin(ctx.get('User-Agent'), clientIp),
        });
        return signInReply(ctx, outcome, { session: cookie, challenge: challengeCookie });
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/logout',
      tag: 'Authentication',
      operationId: 'logout',
      summary: 'Revoke this session and clear the cookie',
      description: "Deletes the session on the server and clears the cookie (`Max-Age=0`).",
      access: 'readonly',
      apiKeys: 'refused',
      allowWithoutMfa: true,
      responses: { 204: { description: 'Logged out' } },
      // A dead session (expired, revoked elsewhere) answers 401, and the cookie is cleared anyway.
      onUnauthenticated: (ctx) => {
        if (cookie.read(ctx) !== undefined) cookie.clear(ctx);
      },
      handler: async ({ caller, ctx }) => {
        await useCases.logout.execute(caller);
        cookie.clear(ctx);
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/password/forgot',
      tag: 'Password',
      operationId: 'forgotPassword',
      summary: 'Email a password-reset link (same answer whether or not the account exists)',
      description: "Emails a single-use reset link, valid 1 hour, when the account exists. Answers 202 the same way whatever the email.",
      access: 'public',
      rateLimit: LIMITS.forgot,
      body: EmailRequest,
      responses: { 202: { description: 'Accepted', schema: SuccessResponse } },
      handler: async ({ body }) => {
        // Not awaited: whether an email is written must not show in the response time.
        options.afterResponse.run('forgot-password', () => useCases.forgotPassword.execute({ email: body.email }));
        return { status: 202, body: success };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/password/reset',
      tag: 'Password',
      operationId: 'resetPassword',
      summary: 'Set a new password with the emailed token; revokes every session of the user',
      description: "Takes the `token` from the emailed link and the new password. The token is single-use; every session of the user is revoked, so log in again.",
      access: 'public',
      body: ResetPasswordRequest,
      responses: { 200: { description: 'Password changed', schema: SuccessResponse } },
      errors: ['INVALID_TOKEN'],
      handler: async ({ body, ctx, clientIp }) => {
        await useCases.resetPassword.execute({ token: body.token, newPassword: body.new_password, origin: sessionOrigin(ctx.get('User-Agent'), clientIp) });
        return { status: 200, body: success };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/password/update',
      tag: 'Password',
      operationId: 'updatePassword',
      summary: 'Change the password given the current one; revokes the other sessions',
      description: "Needs the current password (400 `INVALID_CURRENT_PASSWORD` otherwise). Revokes the user's other sessions and keeps this one.",
      access: 'readonly',
      apiKeys: 'refused',
      rateLimit: LIMITS.updatePassword,
      body: UpdatePasswordRequest,
      responses: { 200: { description: 'Password changed', schema: SuccessResponse } },
      errors: ['INVALID_CURRENT_PASSWORD'],
      handler: async ({ body, caller }) => {
        await useCases.updatePassword.execute(caller, {
          currentPassword: body.current_password,
          newPassword: body.new_password,
        });
        return { status: 200, body: success };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/users/me',
      tag: 'Users',
      operationId: 'getCurrentUser',
      summary: 'The logged-in user, their organization and role',
      description: "The user behind the session cookie, with their organization and role. `has_password` is false for an account made through the identity provider.",
      access: 'readonly',
      apiKeys: 'refused',
      allowWithoutMfa: true,
      responses: { 200: { description: 'The current user', schema: CurrentUserResponse } },
      handler: async ({ caller }) => ({ status: 200, body: currentUserView(await useCases.getCurrentUser.execute(caller)) }),
    }),
    defineRoute({
      method: 'put',
      path: '/users/me',
      tag: 'Users',
      operationId: 'updateCurrentUser',
      summary: 'Change your own first and last name',
      description:
        "Sets the names given: each is trimmed and 1..100 characters of one line (control characters are refused), or `null` to clear it. A name left out keeps its value; at least one must be given, and any other field is refused (422). Answers the `/users/me` shape.",
      access: 'readonly',
      apiKeys: 'refused',
      allowWithoutMfa: true,
      body: UpdateCurrentUserRequest,
      responses: { 200: { description: 'The current user, renamed', schema: CurrentUserResponse } },
      handler: async ({ body, caller }) => {
        const change = {
          ...(body.first_name !== undefined ? { firstName: body.first_name } : {}),
          ...(body.last_name !== undefined ? { lastName: body.last_name } : {}),
        };
        return { status: 200, body: currentUserView(await useCases.updateProfile.execute(caller, change)) };
      },
    }),
  ];
}
