import type * as v from 'valibot';
import type { Context } from 'koa';
import type { Caller, UserCaller } from '../../core/access/caller';
import type { RoleName } from '../../core/access/role';
import type { ApiErrorCode, TranslatedCode } from './error-mapping';

type Schema = v.GenericSchema;
type Out<S> = S extends Schema ? v.InferOutput<S> : undefined;

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  schema?: Schema;
  /** Anything but JSON (the docs page): the media type, described as a string body. */
  mediaType?: string;
  /** Documented response headers, name → description. */
  headers?: Record<string, string>;
}

/**
 * A 201 that creates a user names it as a member of its organization: `/members/{user_id}` is
 * where its role is changed and where it is removed.
 */
export const NEW_MEMBER_LOCATION = '`/members/{user_id}` of the new user';

export interface Reply {
  status: number;
  body?: unknown;
}

/**
 * Whether an organization API key may call an authenticated route. `accepted`: the route acts on
 * the organization, and a key reaches it as far as its role does. `refused`: the route is about
 * one's own user (account, password, sessions, MFA, passkeys, notes and the copilot), or is one
 * a key must not reach (minting keys, `sys_admin` routes): a key gets 403 ACCESS_DENIED.
 */
export type ApiKeyAccess = 'accepted' | 'refused';

/** The caller a handler gets: none on a public route, a member or a key where keys are accepted, a member otherwise. */
export type CallerOf<A, K> = A extends 'public' ? undefined : K extends 'accepted' ? Caller : UserCaller;

export interface HandlerInput<B, P, Q, A, K = ApiKeyAccess> {
  body: Out<B>;
  params: Out<P>;
  query: Out<Q>;
  /** The authenticated caller; absent on public routes. */
  caller: CallerOf<A, K>;
  /** The client address as the rate limits see it (trusted proxy hops applied). */
  clientIp: string;
  ctx: Context;
}

/**
 * One HTTP route, declared once: the router mounts it, the OpenAPI generator describes it from
 * the same valibot schemas the handler is validated with. `access` is the only way a route says
 * who may call it.
 */
interface RouteFields<
  B extends Schema | undefined,
  P extends Schema | undefined,
  Q extends Schema | undefined,
  A extends 'public' | RoleName,
  K extends ApiKeyAccess,
> {
  method: HttpMethod;
  /** OpenAPI-style path: `/projects/{project_id}`. */
  path: string;
  tag: string;
  operationId: string;
  /** One line: the operation's name in the reference. */
  summary: string;
  /** What a client needs to know to call it: behaviour, side effects, when it fails. Markdown. */
  description: string;
  access: A;
  /**
   * False: described, but not served in this deployment (signup in B2B mode, an unconfigured
   * identity provider): every method on the path answers 404 NOT_FOUND, before any rate limit.
   * The description stays the same whatever the settings, so a generated client does too.
   */
  enabled?: boolean;
  /**
   * `<count>/<n?><unit>` per client IP, or per authenticated user with `per: 'user'` (counted
   * after authentication, so only for routes that require a session); `bucket` lets routes share
   * one counter.
   */
  rateLimit?: { bucket: string; rule: string; per?: 'ip' | 'user' };
  body?: B;
  /** The body may be left out (described as not required); the handler then decides what is missing. */
  bodyOptional?: boolean;
  params?: P;
  query?: Q;
  responses: Record<number, ResponseSpec>;
  /**
   * Error codes this route can answer besides the ones implied by access, body and limits; a
   * domain code the edge translates (INVALID_PASSKEY_RESPONSE) is described as it is answered.
   */
  errors?: Array<ApiErrorCode | TranslatedCode>;
  /**
   * Open to a caller whose organization requires MFA before they have set it up: only what they
   * need to set it up (their account, their sessions, MFA setup, logout). Everything else
   * answers MFA_REQUIRED to them.
   */
  allowWithoutMfa?: boolean;
  /** Kept out of the OpenAPI description (e.g. `/cron`). */
  hidden?: boolean;
  /** Also answer this method set (e.g. GET and POST on `/cron`). */
  alsoMethods?: HttpMethod[];
  /**
   * Runs when the session guard refuses the caller (401), before the error is answered: logout
   * clears the cookie there, so a client holding a dead session still ends without it.
   */
  onUnauthenticated?(ctx: Context): void;
  /** Body is read raw (webhooks): skip JSON parsing and validation. */
  rawBody?: boolean;
  /**
   * Called by other servers (a payment provider, a scheduler) and authenticated by a signature
   * or a shared secret, never by the session cookie: the cross-site request check does not apply.
   */
  serverToServer?: boolean;
  handler(input: HandlerInput<B, P, Q, A, K>): Promise<Reply>;
}

/**
 * One HTTP route, declared once. Every authenticated route says whether API keys may call it
 * (`apiKeys`), so a new route cannot leave the question open; a public route has no caller to ask about.
 */
export type RouteDefinition<
  B extends Schema | undefined = Schema | undefined,
  P extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  A extends 'public' | RoleName = 'public' | RoleName,
  K extends ApiKeyAccess = ApiKeyAccess,
> = RouteFields<B, P, Q, A, K> & (A extends 'public' ? { apiKeys?: never } : { apiKeys: K });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteDefinition<any, any, any, any, any>;

export function defineRoute<
  B extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  A extends 'public' | RoleName = 'public',
  K extends ApiKeyAccess = 'refused',
>(route: RouteDefinition<B, P, Q, A, K>): AnyRoute {
  return route;
}
