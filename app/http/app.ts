import Koa from 'koa';
import cors from '@koa/cors';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config';
import { allowedRequestOrigins } from './middleware/cross-site';
import { edge } from './middleware/edge';
import { securityHeaders } from './middleware/security-headers';
import { buildRouter, type RouterDeps } from './router';
import type { AnyRoute } from './route';

export interface HttpAppDeps extends Omit<RouterDeps, 'allowedOrigins'> {
  config: AppConfig;
  logger: Logger;
  routes: readonly AnyRoute[];
  isDependencyDown(error: unknown): boolean;
}

const EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'Link', 'Location'];

/**
 * The methods a preflight allows: those the routes answer (HEAD with GET), read from the routes
 * so a route on a new method (PATCH /passkeys/{id}) cannot be left out and blocked in browsers.
 */
export function corsMethods(routes: readonly AnyRoute[]): string[] {
  const methods = new Set(routes.map((route) => route.method.toUpperCase()));
  if (methods.has('GET')) methods.add('HEAD');
  return [...methods].sort();
}

/**
 * Three middlewares: the security headers (first, so every answer carries them), the edge
 * (canonical path, request id and access log, the error mapper, CORS, the body size limit, the disposal of unread bodies; its order is the
 * design, written in app/http/middleware/edge.ts) and the routes (which parse a body only once a
 * route has matched and the caller is known).
 */
export function createHttpApp(deps: HttpAppDeps): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true; // errors are logged by the edge's error mapper, with their error id
  const allowedOrigins = new Set(deps.config.corsOrigins);
  app.use(securityHeaders({ hsts: deps.config.environment !== 'dev' }));
  app.use(
    edge({
      logger: deps.logger,
      clientIp: deps.clientIp,
      isDependencyDown: deps.isDependencyDown,
      corsOrigins: allowedOrigins,
      cors: cors({
        origin: (ctx) => {
          const origin = ctx.get('Origin');
          return allowedOrigins.has(origin) ? origin : '';
        },
        credentials: true,
        allowMethods: corsMethods(deps.routes),
        allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
        exposeHeaders: EXPOSED_HEADERS,
        maxAge: 600,
        secureContext: false,
        keepHeadersOnError: true,
      }),
    }),
  );
  const routerDeps: RouterDeps = { ...deps, allowedOrigins: allowedRequestOrigins(deps.config.corsOrigins, deps.config.baseApiUrl) };
  for (const middleware of buildRouter(deps.routes, routerDeps)) app.use(middleware);
  return app;
}
