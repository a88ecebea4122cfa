import Koa, { type Middleware } from 'koa';
import cors from '@koa/cors';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config';
import { errorHandler } from './middleware/error-handler';
import { bodySizeLimit, unreadBodyDisposal } from './middleware/body';
import { allowedRequestOrigins } from './middleware/cross-site';
import { requestContext } from './middleware/request-context';
import { securityHeaders } from './middleware/security-headers';
import { buildRouter, type RouterDeps } from './router';
import { canonicalPath } from './middleware/canonical-path';
import type { AnyRoute } from './route';

export interface HttpAppDeps extends Omit<RouterDeps, 'allowedOrigins'> {
  config: AppConfig;
  logger: Logger;
  routes: readonly AnyRoute[];
  isDependencyDown(error: unknown): boolean;
}

const EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'Link', 'Location'];

/**
 * CORS for a request without `Origin` (every non-browser client, and a browser's same-origin
 * GET) comes down to `Vary: Origin`: the origin check finds no allowed origin and the CORS
 * middleware only passes the request on, two async steps later. So such a request gets the
 * `Vary` here and goes straight on; the rest go through `cors`.
 */
function withoutOriginSkipped(cors: Middleware, allowedOrigins: ReadonlySet<string>): Middleware {
  if (allowedOrigins.has('')) return cors;
  return (ctx, next) => {
    if (ctx.get('Origin') !== '') return cors(ctx, next);
    ctx.vary('Origin');
    return next();
  };
}

/**
 * The middleware order is the design: the canonical path first (everything below sees it),
 * request id and access log outermost, then what happens to
 * a body the answer did not need (it sees the final status), then headers that
 * every response must carry, then the single error mapper, then CORS, the body size limit and routes
 * (which parse a body only once a route has matched and the caller is known).
 */
export function createHttpApp(deps: HttpAppDeps): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true; // errors are logged by errorHandler, with their error id
  const allowedOrigins = new Set(deps.config.corsOrigins);

  app.use(canonicalPath());
  app.use(requestContext(deps.logger, deps.clientIp));
  app.use(unreadBodyDisposal());
  app.use(securityHeaders({ hsts: deps.config.environment !== 'dev' }));
  app.use(errorHandler(deps.isDependencyDown));
  app.use(
    withoutOriginSkipped(
      cors({
        origin: (ctx) => {
          const origin = ctx.get('Origin');
          return allowedOrigins.has(origin) ? origin : '';
        },
        credentials: true,
        allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
        allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
        exposeHeaders: EXPOSED_HEADERS,
        maxAge: 600,
        secureContext: false,
        keepHeadersOnError: true,
      }),
      allowedOrigins,
    ),
  );
  app.use(bodySizeLimit());
  const routerDeps: RouterDeps = { ...deps, allowedOrigins: allowedRequestOrigins(deps.config.corsOrigins, deps.config.baseApiUrl) };
  for (const middleware of buildRouter(deps.routes, routerDeps)) app.use(middleware);
  return app;
}
