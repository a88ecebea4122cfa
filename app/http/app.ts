import Koa from 'koa';
import cors from '@koa/cors';
import { bodyParser } from '@koa/bodyparser';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config';
import { errorHandler } from './middleware/error-handler';
import { requestContext } from './middleware/request-context';
import { securityHeaders } from './middleware/security-headers';
import { buildRouter, type RouterDeps } from './router';
import type { AnyRoute } from './route';

export interface HttpAppDeps extends RouterDeps {
  config: AppConfig;
  logger: Logger;
  routes: readonly AnyRoute[];
  isDependencyDown(error: unknown): boolean;
}

const EXPOSED_HEADERS = ['X-Request-Id', 'Retry-After', 'Link'];

/**
 * The middleware order is the design: request id and access log outermost, then headers that
 * every response must carry, then the single error mapper, then CORS, body parsing and routes.
 */
export function createHttpApp(deps: HttpAppDeps): Koa {
  const app = new Koa({ proxy: false });
  app.silent = true; // errors are logged by errorHandler, with their error id
  const allowedOrigins = new Set(deps.config.corsOrigins);

  app.use(requestContext(deps.logger));
  app.use(securityHeaders({ hsts: deps.config.environment !== 'dev' }));
  app.use(errorHandler(deps.isDependencyDown));
  app.use(
    cors({
      origin: (ctx) => {
        const origin = ctx.get('Origin');
        return allowedOrigins.has(origin) ? origin : '';
      },
      credentials: true,
      allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowHeaders: ['Content-Type', 'X-Request-Id'],
      exposeHeaders: EXPOSED_HEADERS,
      maxAge: 600,
      secureContext: false,
      keepHeadersOnError: true,
    }),
  );
  app.use(
    bodyParser({
      enableTypes: ['json'],
      jsonLimit: '1mb',
      encoding: 'utf-8',
      jsonStrict: true,
      parsedMethods: ['POST', 'PUT', 'PATCH', 'DELETE'],
    }),
  );
  for (const middleware of buildRouter(deps.routes, deps)) app.use(middleware);
  return app;
}
