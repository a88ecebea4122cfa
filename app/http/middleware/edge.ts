import type { Context, Middleware } from 'koa';
import type { Logger } from 'pino';
import { assertBodySize, disposeUnreadBody, hasBody } from './body';
import { canonicalizePath } from './canonical-path';
import { answerError } from './error-handler';
import { accessLog, startRequest } from './request-context';

export interface EdgeOptions {
  logger: Logger;
  clientIp(ctx: Context): string;
  isDependencyDown(error: unknown): boolean;
  /** The CORS middleware, for requests that carry `Origin`. */
  cors: Middleware;
  /** The configured CORS origins: `''` among them means CORS runs for every request. */
  corsOrigins: ReadonlySet<string>;
}

/**
 * Everything every request goes through before its route, after the security headers
 * (./security-headers.ts, the outermost middleware), as one middleware: one async step per
 * request, not six composed ones (each a bound dispatcher and a promise). In this order:
 *
 * 1. the canonical path (`canonicalizePath`): everything below sees it, the access log included;
 * 2. the request id, echoed in `X-Request-Id`, and the request's state (`startRequest`);
 * 3. around the rest, the single error mapper (`answerError`), so whatever fails below becomes
 *    one ErrorResponse;
 * 4. CORS: a request without `Origin` (every non-browser client, and a browser's same-origin
 *    GET) comes down to `Vary: Origin`, since the origin check would find no allowed origin and
 *    the CORS middleware would only pass the request on: it gets the `Vary` here and goes straight
 *    on; the rest go through `cors`;
 * 5. the body size limit, then the routes (`next`), which parse a body only once a route has
 *    matched and the caller is known;
 * 6. once the answer is decided (its status known), what the answer did not read of a body is
 *    disposed of (`disposeUnreadBody`);
 * 7. last, at `info`, the access-log line (`accessLog`), also when something above threw.
 */
export function edge(options: EdgeOptions): Middleware {
  const { logger, clientIp, isDependencyDown, cors } = options;
  const corsForEvery = options.corsOrigins.has('');
  const writeAccessLine = accessLog(logger, clientIp);
  const routed = (ctx: Context, next: () => Promise<unknown>) => {
    assertBodySize(ctx);
    return next();
  };
  return async (ctx, next) => {
    const started = performance.now();
    canonicalizePath(ctx);
    const requestId = startRequest(ctx, logger);
    const res = ctx.res;
    const withBody = hasBody(ctx);
    try {
      try {
        if (corsForEvery || ctx.req.headers.origin) {
          await cors(ctx, () => routed(ctx, next));
        } else {
          res.setHeader('Vary', 'Origin');
          await routed(ctx, next);
        }
      } catch (error) {
        answerError(ctx, error, isDependencyDown);
      }
      if (withBody) await disposeUnreadBody(ctx);
    } finally {
      if (logger.isLevelEnabled('info')) writeAccessLine(ctx, requestId, started);
    }
  };
}
