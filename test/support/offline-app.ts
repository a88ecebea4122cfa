import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../app/config/config';
import { createHttpApp } from '../../app/http/app';
import type { AnyRoute } from '../../app/http/route';
import { createLogger } from '../../app/logging';
import { offlineRoutes } from '../client/openapi-document';

export interface OfflineApp {
  url: string;
  close(): Promise<void>;
}

/**
 * The real Koa stack and router over every route, with no database: for tests of what the HTTP
 * layer serves on its own (the description, the docs page, the request validation). Callers
 * are `sys_admin`; there is no rate limit; a handler that needs storage fails (use `routes` to
 * replace them).
 */
export async function startOfflineApp(routes: (routes: AnyRoute[]) => AnyRoute[] = (r) => r): Promise<OfflineApp> {
  const { config } = loadConfig({});
  const app = createHttpApp({
    config,
    logger: createLogger('silent'),
    routes: routes(offlineRoutes()),
    authenticate: async () => ({ userId: 1, organizationId: 1, role: 'sys_admin', sessionId: 1, mfaSatisfied: true, kind: 'user' as const }),
    rateLimiter: { consume: async () => ({ allowed: true, retryAfterSeconds: 0 }) } as never,
    clientIp: () => '127.0.0.1',
    isDependencyDown: () => false,
  });
  const server: Server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
