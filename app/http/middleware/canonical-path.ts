import type { Context } from 'koa';

/**
 * Serves a path that ends in one slash (`/notes/`) as the path without it (`/notes`), for every
 * method, CORS preflights included: clients generated from frameworks that add the slash work
 * unchanged. Rewritten in place, not redirected: a browser does not follow a redirect on a
 * preflight, and a redirected POST may lose its body. Only one slash goes: `/notes//` stays
 * `/notes/` and so unknown, as does any path with a doubled slash; `/` is left alone. Runs first
 * (app/http/middleware/edge.ts): everything after it (CORS, routing, rate limits, the access log)
 * sees the one canonical path.
 */
export function canonicalizePath(ctx: Context): void {
  const path = ctx.path;
  if (path.length > 1 && path.endsWith('/') && !path.endsWith('//')) ctx.path = path.slice(0, -1);
}
