import { defineRoute, type AnyRoute } from '../route';
import type { PasskeyChallengeCookie, SessionCookie } from '../session-cookie';
import { UserIdResponse } from '../schemas/account.schemas';
import {
  CreationOptionsResponse,
  PasskeyIdParams,
  PasskeyListResponse,
  PasskeyLoginRequest,
  PasskeyResponse,
  RegisterPasskeyRequest,
  RenamePasskeyRequest,
  RequestOptionsResponse,
} from '../schemas/passkey.schemas';
import { sessionOrigin } from '../../../core/accounts/session-issuer';
import type { Passkey } from '../../../core/passkeys/passkey';
import type { StartPasskeyRegistration } from '../../../core/passkeys/start-passkey-registration.use-case';
import type { RegisterPasskey } from '../../../core/passkeys/register-passkey.use-case';
import type { ListPasskeys } from '../../../core/passkeys/list-passkeys.use-case';
import type { RenamePasskey } from '../../../core/passkeys/rename-passkey.use-case';
import type { DeletePasskey } from '../../../core/passkeys/delete-passkey.use-case';
import type { StartPasskeyLogin } from '../../../core/passkeys/start-passkey-login.use-case';
import type { LoginWithPasskey } from '../../../core/passkeys/login-with-passkey.use-case';

export interface PasskeyUseCases {
  startPasskeyRegistration: StartPasskeyRegistration;
  registerPasskey: RegisterPasskey;
  listPasskeys: ListPasskeys;
  renamePasskey: RenamePasskey;
  deletePasskey: DeletePasskey;
  startPasskeyLogin: StartPasskeyLogin;
  loginWithPasskey: LoginWithPasskey;
}

/**
 * A passkey sign-in shares `/auth/login`'s counter per client IP (and, in the use case, its
 * per-account one): switching from passwords to passkeys buys no extra tries. Asking for login options only writes a challenge row, limited
 * more loosely so a page can open several sign-ins.
 */
const LIMITS = {
  login: { bucket: 'login', rule: '5/15m' },
  loginOptions: { bucket: 'passkey-login-options', rule: '30/15m' },
} as const;

const view = (passkey: Passkey) => ({
  id: passkey.id,
  name: passkey.name,
  created_at: passkey.createdAt.toISOString(),
  last_used_at: passkey.lastUsedAt?.toISOString() ?? null,
  backed_up: passkey.backedUp,
  device_type: passkey.deviceType,
  transports: passkey.transports,
});

/**
 * Passkeys (WebAuthn): enrolment and management for the logged-in user, and discoverable sign-in.
 * Enrolment and management stay open to a member whose organization requires MFA, so they can
 * enrol a passkey instead of TOTP.
 */
export function passkeyRoutes(useCases: PasskeyUseCases, cookies: { session: SessionCookie; challenge: PasskeyChallengeCookie }): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/auth/passkeys/register/options',
      tag: 'Passkeys',
      operationId: 'passkeyRegistrationOptions',
      summary: 'Creation options for a new passkey, for `navigator.credentials.create()`',
      description:
        "`PublicKeyCredentialCreationOptionsJSON`: a fresh 32-byte challenge (single use, 5 minutes, bound to this session; asking again replaces it), an opaque `user.id`, the caller's passkeys as `excludeCredentials`, `residentKey: \"required\"`, `userVerification: \"required\"`, algorithms ES256 (-7) and RS256 (-257), attestation `none`. Pass it to `PublicKeyCredential.parseCreationOptionsFromJSON()`.",
      access: 'readonly',
      apiKeys: 'refused',
      allowWithoutMfa: true,
      responses: { 200: { description: 'Creation options', schema: CreationOptionsResponse } },
      handler: async ({ caller }) => ({ status: 200, body: await useCases.startPasskeyRegistration.execute(caller) }),
    }),
    defineRoute({
      method: 'post',
      path: '/auth/passkeys/register',
      tag: 'Passkeys',
      operationId: 'registerPasskey',
      summary: "Register the passkey the browser created (`response`: the credential's `toJSON()`)",
      description:
        "Verifies the browser's `RegistrationResponseJSON` against this session's pending challenge (used up by the attempt) and stores the public key. `name` defaults to \"Passkey\" and the date. A response that does not verify (attestation, origin, rp id, user verification, challenge) or a credential already registered: 400 `VALIDATION_ERROR` with `details` naming `body.response`.",
      access: 'readonly',
      apiKeys: 'refused',
      allowWithoutMfa: true,
      body: RegisterPasskeyRequest,
      responses: { 201: { description: 'The new passkey', schema: PasskeyResponse } },
      errors: ['INVALID_PASSKEY_RESPONSE'],
      handler: async ({ caller, body }) => {
        const passkey = await useCases.registerPasskey.execute(caller, { response: body.response, name: body.name ?? undefined });
        return { status: 201, body: view(passkey) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/passkeys',
      tag: 'Passkeys',
      operationId: 'listPasskeys',
      summary: "The caller's passkeys",
      description: "The caller's passkeys, oldest first. Public keys and credential ids are not shown.",
      access: 'readonly',
      apiKeys: 'refused',
      allowWithoutMfa: true,
      responses: { 200: { description: 'Passkeys', schema: PasskeyListResponse } },
      handler: async ({ caller }) => ({ status: 200, body: (await useCases.listPasskeys.execute(caller)).map(view) }),
    }),
    defineRoute({
      method: 'patch',
      path: '/passkeys/{passkey_id}',
      tag: 'Passkeys',
      operationId: 'renamePasskey',
      summary: 'Rename one of the caller\'s passkeys',
      description: "Sets the name (1..64 characters, one line). Another user's passkey: 404 `RESOURCE_NOT_FOUND`.",
      access: 'readonly',
      apiKeys: 'refused',
      allowWithoutMfa: true,
      params: PasskeyIdParams,
      body: RenamePasskeyRequest,
      responses: { 200: { description: 'The renamed passkey', schema: PasskeyResponse } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params, body }) => ({
        status: 200,
        body: view(await useCases.renamePasskey.execute(caller, { passkeyId: params.passkey_id, name: body.name })),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/passkeys/{passkey_id}',
      tag: 'Passkeys',
      operationId: 'deletePasskey',
      summary: "Delete one of the caller's passkeys",
      description: "The passkey can no longer sign in (the authenticator may still hold it). Another user's passkey: 404 `RESOURCE_NOT_FOUND`.",
      access: 'readonly',
      apiKeys: 'refused',
      allowWithoutMfa: true,
      params: PasskeyIdParams,
      responses: { 204: { description: 'Deleted' } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params }) => {
        await useCases.deletePasskey.execute(caller, { passkeyId: params.passkey_id });
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/passkeys/login/options',
      tag: 'Passkeys',
      operationId: 'passkeyLoginOptions',
      summary: 'Request options for a passkey sign-in, for `navigator.credentials.get()`; sets the `passkey_challenge` cookie',
      description:
        "`PublicKeyCredentialRequestOptionsJSON` with an empty `allowCredentials` (discoverable credentials: the authenticator offers the user's passkeys for this site) and `userVerification: \"required\"`. Sets the `passkey_challenge` cookie (HttpOnly, 5 minutes, single use) that `loginWithPasskey` needs. Pass the options to `PublicKeyCredential.parseRequestOptionsFromJSON()`.",
      access: 'public',
      rateLimit: LIMITS.loginOptions,
      responses: {
        200: { description: 'Request options', schema: RequestOptionsResponse, headers: { 'Set-Cookie': 'The `passkey_challenge` cookie (HttpOnly)' } },
      },
      handler: async ({ ctx }) => {
        const started = await useCases.startPasskeyLogin.execute();
        cookies.challenge.set(ctx, started.cookieToken);
        return { status: 200, body: started.options };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/auth/passkeys/login',
      tag: 'Passkeys',
      operationId: 'loginWithPasskey',
      summary: "Sign in with a passkey (`response`: the credential's `toJSON()`); sets the session cookie",
      description:
        "Verifies the browser's `AuthenticationResponseJSON` against the `passkey_challenge` cookie's challenge (used up by the attempt). A passkey with user verification is both factors: no TOTP step, and the session satisfies an organization's `require_mfa`. Every failure (unknown credential, bad signature, wrong origin or rp id, user not verified, missing, used or expired challenge, a signature counter that went backwards) is 401 `INVALID_CREDENTIALS`; a suspended user or organization 401 `ACCOUNT_SUSPENDED`. Shares `login`'s rate limits: per client IP, and per account for a registered credential (its failures count as wrong passwords do; a full window answers 429 `RATE_LIMITED` before verifying). A session cookie sent with the request is revoked first.",
      access: 'public',
      rateLimit: LIMITS.login,
      body: PasskeyLoginRequest,
      responses: {
        200: { description: 'Signed in', schema: UserIdResponse, headers: { 'Set-Cookie': 'The session cookie (HttpOnly); the `passkey_challenge` cookie cleared' } },
      },
      errors: ['INVALID_CREDENTIALS', 'ACCOUNT_SUSPENDED'],
      handler: async ({ body, ctx, clientIp }) => {
        const cookieToken = cookies.challenge.read(ctx);
        // The challenge is spent whatever the outcome: the cookie goes with it.
        if (cookieToken !== undefined) cookies.challenge.clear(ctx);
        const { userId, session } = await useCases.loginWithPasskey.execute({
          cookieToken,
          response: body.response,
          presentedToken: cookies.session.read(ctx),
          origin: sessionOrigin(ctx.get('User-Agent'), clientIp),
        });
        cookies.session.set(ctx, session.token);
        return { status: 200, body: { user_id: userId } };
      },
    }),
  ];
}
