import { Router } from '@koa/router';
import * as v from 'valibot';
import type { Context, Middleware } from 'koa';
import { callerRef, type Caller } from '../../core/access/caller';
import { satisfies } from '../../core/access/role';
import { DomainError } from '../../core/shared/domain-error';
import { HttpError, noSuchRoute } from './http-error';
import { parseRateRule, type RateLimiter, type RateRule } from '../../core/shared/rate-limiter.port';
import type { AnyRoute } from './route';
import { locateInputFields, parseOrThrow } from './validation';
import { bodyIsEmpty, jsonBodyReader } from './middleware/body';
import { rateLimitKey } from './client-ip';
import { assertNotCrossSite } from './middleware/cross-site';
import { bearerKey } from './request-credentials';
import { EdgeOrigin } from './request-origin';
import { setBody } from './json-body';

export interface RouterDeps {
  /** Resolves the caller from the request's bearer API key or session cookie; throws UNAUTHORIZED. */
  authenticate(ctx: Context): Promise<Caller>;
  rateLimiter: RateLimiter;
  /** What each organization API key may spend, counted on its own whatever the route. */
  apiKeyRateRule?: RateRule;
  clientIp(ctx: Context): string;
  /** Browser origins whose state-changing requests are accepted (see assertNotCrossSite). */
  allowedOrigins: ReadonlySet<string>;
}

/**
 * Mounts route definitions. Per request, in order: the cross-site check, rate limit (before anything costly), session
 * authentication and the role guard, then path/query/body validation, then the handler, whose
 * VALIDATION_ERROR fields (named after the use case's input) are mapped to where the request
 * carried them. Paths match exactly (a trailing slash is taken off before, by canonicalPath); an unknown path answers 404 NOT_FOUND and a known path with another
 * method 405 METHOD_NOT_ALLOWED with `Allow`.
 */
export function buildRouter(routes: readonly AnyRoute[], deps: RouterDeps): Middleware[] {
  // One router per first path segment (`/projects/{project_id}` → `projects`): a request is
  // matched against the few routes that can match it, not against every route's pattern in turn,
  // which on a busy path cost more than the rest of the routing.
  const routers = new Map<string, Router>();
  const mounted: Array<{ route: AnyRoute; segment: string; path: string; name: string; middleware: Middleware }> = [];
  for (const route of routes) {
    if (route.enabled === false) continue;
    const segment = firstSegment(route.path);
    if (/[{}:*]/.test(segment)) throw new Error(`${route.operationId}: a route path must start with a fixed segment (${route.path})`);
    let router = routers.get(segment);
    // Paths match exactly (no case variants; a trailing slash is gone by now): one URL per resource, so caches and rate limits see one key.
    if (!router) routers.set(segment, (router = new Router({ strict: true, sensitive: true })));
    const path = route.path.replace(/\{(\w+)\}/g, ':$1');
    for (const method of [route.method, ...(route.alsoMethods ?? [])]) {
      const name = route.operationId + (method === route.method ? '' : `:${method}`);
      const middleware = handle(route, deps);
      router[method](name, path, middleware);
      mounted.push({ route, segment, path, name, middleware });
    }
  }
  const fixed = fixedPathHandlers(routers, mounted);
  const dispatch = new Map([...routers].map(([segment, router]) => [segment, router.routes() as unknown as Middleware]));
  const routed = async (ctx: Context, next: () => Promise<unknown>) => {
    const middleware = dispatch.get(firstSegment(ctx.path));
    await (middleware ? middleware(ctx, next) : next());
    if (ctx.body !== undefined || ctx.status !== 404 || ctx.state.routeMatched) return;
    const match = routers.get(firstSegment(ctx.path))?.match(ctx.path, ctx.method);
    const methods = match ? match.path.flatMap((layer) => layer.methods) : [];
    if (methods.length === 0) throw noSuchRoute();
    // Every known path also answers OPTIONS (below), so `Allow` names it too.
    const allowed = [...new Set([...methods, 'OPTIONS'])];
    if (ctx.method === 'OPTIONS') {
      ctx.set('Allow', allowed.join(', '));
      ctx.status = 204;
      return;
    }
    throw new HttpError('METHOD_NOT_ALLOWED', `${ctx.method} is not allowed here`, { allow: allowed });
  };
  // A route's handler always marks the request as routed, so what comes after a fixed-path
  // handler (the 404/405 fallback) would have nothing to do: it is not waited for.
  const routing: Middleware = (ctx, next) => {
    const direct = fixed.get(ctx.path)?.get(ctx.method);
    return direct ? direct(ctx, next) : routed(ctx, next);
  };
  return [routing];
}

/**
 * Path → method → handler, for the routes a request reaches by its exact path (no parameter in
 * it): what @koa/router would run first for that path and method, found once here rather than
 * by matching, building a middleware chain and capturing parameters per request. Only where the
 * route is the first to match: a handler answers and never passes the request on, so the routes
 * matching after it never ran anyway. HEAD comes with GET, as @koa/router registers it.
 */
function fixedPathHandlers(
  routers: ReadonlyMap<string, Router>,
  mounted: ReadonlyArray<{ route: AnyRoute; segment: string; path: string; name: string; middleware: Middleware }>,
): Map<string, Map<string, Middleware>> {
  const fixed = new Map<string, Map<string, Middleware>>();
  for (const { route, segment, path, name, middleware } of mounted) {
    if (path.includes(':') || route.params) continue;
    const router = routers.get(segment)!;
    const layer = router.match(path, 'GET').path.find((candidate) => candidate.name === name);
    for (const method of layer?.methods ?? []) {
      if (router.match(path, method).pathAndMethod[0]?.name !== name) continue;
      let byMethod = fixed.get(path);
      if (!byMethod) fixed.set(path, (byMethod = new Map()));
      byMethod.set(method, middleware);
    }
  }
  return fixed;
}

/** `/projects/7` → `projects`, `/` → ``: a path can only match routes that start with its first segment. */
function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end === -1 ? path.slice(1) : path.slice(1, end);
}

const readJsonBody = jsonBodyReader();

/**
 * A body sent to a JSON route with another media type (a form, text/plain) is refused as such:
 * parsing it as JSON, or as nothing, would answer a misleading "Required". An empty body is no
 * body, whatever its headers say (a browser posting nothing sends `Content-Length: 0` and no
 * `Content-Type`): the schema judges it, as `{}`. Resolves whether the body is empty.
 */
async function requireJsonOrEmptyBody(ctx: Context): Promise<boolean> {
  if (ctx.is('json', '+json') !== false) return false;
  if (await bodyIsEmpty(ctx)) return true;
  throw new HttpError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be JSON (Content-Type: application/json)', {
    content_type: ctx.get('Content-Type') || null,
  });
}

const NOT_AN_OBJECT = () => new DomainError('VALIDATION_ERROR', 'The request is invalid', { body: 'Must be a JSON object' });

function handle(route: AnyRoute, deps: RouterDeps): Middleware {
  const rule = route.rateLimit ? parseRateRule(route.rateLimit.rule) : undefined;
  // Lists are mostly called without a query string: when the schema turns "no parameters" into
  // an empty object, that is the answer, known without parsing anything per request.
  const noQuery = route.query !== undefined && emptyOutput(route.query);
  return async (ctx) => {
    ctx.state.routeMatched = true;
    // A bearer key is no ambient credential: a browser never adds it to a forged request, so the
    // cross-site check (which guards the cookie) does not apply. With a cookie too, authentication refuses the request.
    if (!route.serverToServer && bearerKey(ctx) === undefined) assertNotCrossSite(ctx, deps.allowedOrigins);
    const perUser = route.rateLimit?.per === 'user';
    if (route.rateLimit && rule && !perUser) await consume(deps, route.rateLimit.bucket, rateLimitKey(deps.clientIp(ctx)), rule);
    let caller: Caller | undefined;
    if (route.access !== 'public') {
      try {
        // The origin rides on the caller, so a use case can record where a change came from.
        caller = { ...(await deps.authenticate(ctx)), origin: new EdgeOrigin(ctx, deps.clientIp) };
      } catch (error) {
        if (route.onUnauthenticated && error instanceof DomainError && error.code === 'UNAUTHORIZED') route.onUnauthenticated(ctx);
        throw error;
      }
      // Known from here on, refused or not: the access log names the user a 403 was given to.
      ctx.state.caller = caller;
      if (caller.kind === 'api_key') await admitApiKey(deps, route, caller);
      if (!satisfies(caller.role, route.access)) {
        throw new DomainError('ACCESS_DENIED', 'Your role does not allow this action', { required_role: route.access });
      }
      if (!caller.mfaSatisfied && !route.allowWithoutMfa) {
        throw new DomainError('MFA_REQUIRED', 'Your organization requires two-factor authentication: set it up first');
      }
      if (route.rateLimit && rule && perUser) await consume(deps, route.rateLimit.bucket, callerRef(caller), rule);
    }
    const params = route.params ? parseOrThrow(route.params, ctx.params, 'path') : undefined;
    const query = route.query ? (noQuery && ctx.querystring === '' ? {} : parseOrThrow(route.query, ctx.query, 'query')) : undefined;
    const empty = route.body && !route.rawBody ? await requireJsonOrEmptyBody(ctx) : false;
    if ((route.body || route.rawBody) && !empty) await readJsonBody(ctx);
    let body;
    if (route.body && !route.rawBody) {
      // Every request body is a JSON object; valibot's object() would also accept an array. No bytes at all is no body: `{}`.
      const input: unknown = empty || ctx.request.rawBody === '' ? {} : ctx.request.body;
      if (typeof input !== 'object' || input === null || Array.isArray(input)) throw NOT_AN_OBJECT();
      body = parseOrThrow(route.body, input, 'body');
    }
    let reply;
    try {
      reply = await route.handler(new HandlerInputOf(body, params, query, caller, ctx, deps.clientIp));
    } catch (error) {
      throw locateInputFields(error, route);
    }
    ctx.status = reply.status;
    if (reply.body !== undefined) setBody(ctx, reply.body);
  };
}

/** Whether `schema` accepts an empty query and makes an empty object of it (no defaults, no required field). */
function emptyOutput(schema: v.GenericSchema): boolean {
  const result = v.safeParse(schema, {});
  return result.success && typeof result.output === 'object' && result.output !== null && Object.keys(result.output).length === 0;
}

/** A handler's input; the client address is worked out only if the handler asks for it. */
class HandlerInputOf {
  constructor(
    readonly body: unknown,
    readonly params: unknown,
    readonly query: unknown,
    readonly caller: Caller | undefined,
    readonly ctx: Context,
    private readonly resolveClientIp: (ctx: Context) => string,
  ) {}

  get clientIp(): string {
    return this.resolveClientIp(this.ctx);
  }
}

/**
 * A key's own rate limit counts every request it makes, refused or not; then a key reaches only
 * the routes that say they accept keys, and never a `sys_admin` route.
 */
async function admitApiKey(deps: RouterDeps, route: AnyRoute, caller: Caller): Promise<void> {
  if (deps.apiKeyRateRule) await consume(deps, 'api_key', callerRef(caller), deps.apiKeyRateRule);
  if (route.apiKeys !== 'accepted' || route.access === 'sys_admin') {
    throw new DomainError('ACCESS_DENIED', 'An API key cannot call this route: it is for signed-in members only', { reason: 'api_key_not_accepted' });
  }
}

async function consume(deps: RouterDeps, bucket: string, key: string, rule: RateRule): Promise<void> {
  const decision = await deps.rateLimiter.consume(bucket, key, rule);
  if (!decision.allowed) {
    throw new HttpError('RATE_LIMITED', 'Too many requests, try again later', { retry_after: decision.retryAfterSeconds });
  }
}
