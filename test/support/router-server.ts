import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Context } from 'koa';
import { pino } from 'pino';
import { createHttpApp } from '../../app/http/app';
import type { AnyRoute } from '../../app/http/route';
import { loadConfig } from '../../app/config/config';
import type { Caller } from '../../core/access/caller';

/**
 * `routes` served by the real HTTP app (default settings, silent log, no rate limit) on a random
 * local port, with the test's own `authenticate`: for router tests that need no container.
 */
export async function serveRoutes(routes: AnyRoute[], authenticate: (ctx: Context) => Promise<Caller>): Promise<{ base: string; close(): Promise<void> }> {
  const app = createHttpApp({
    config: loadConfig({}).config,
    logger: pino({ level: 'silent' }),
    routes,
    authenticate,
    rateLimiter: { consume: async () => ({ allowed: true }), check: async () => ({ allowed: true }), reset: async () => undefined },
    clientIp: () => '127.0.0.1',
    isDependencyDown: () => false,
  });
  const server = createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
