import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { AppConfig } from './config/config';
import { createContainer, isDependencyDown } from './container/container';
import { openInfrastructure, type Infrastructure } from './container/infrastructure';
import type { EmbeddedPostgres } from '../adapters/postgres/embedded-postgres';
import { TOKENS } from './container/tokens';
import { createHttpApp } from './http/app';
import { startJobs } from './jobs/jobs';
import { clientIpResolver } from './http/client-ip';
import type { AfterResponse } from './http/after-response';
import { clientErrorResponder } from './http/client-error';
import { gracefulDrain } from './http/graceful-drain';
import { buildOpenApi } from './http/openapi';
import type { AnyRoute } from './http/route';
import { systemRoutes } from './http/routes/system.routes';
import { devMailboxRoutes } from './http/routes/dev-mailbox.routes';
import type { DevMailbox } from '../adapters/email/dev-mailbox';
import { DomainError } from '../core/shared/domain-error';

export interface RunningServer {
  url: string;
  server: Server;
  container: Container;
  infra: Infrastructure;
  /**
   * Stops accepting (new connections refused, idle ones closed, in-flight answers carry
   * `Connection: close`), lets in-flight requests finish (up to `graceMs`, then cuts them), stops
   * the jobs, then closes the pool.
   */
  close(graceMs?: number): Promise<void>;
}

const VERSION = '0.1.0';

/** `devMailbox`: mounts `/dev/mailbox` (dev with the stub provider only). */
export function composeRoutes(container: Container, config: AppConfig, devMailbox?: DevMailbox): AnyRoute[] {
  const features = container.isBound(TOKENS.Routes) ? container.getAll(TOKENS.Routes).flat() : [];
  let openApi: Record<string, unknown> | undefined;
  const routes: AnyRoute[] = [];
  routes.push(
    ...systemRoutes({
      healthChecks: container.getAll(TOKENS.HealthCheck),
      name: 'tenantkit',
      version: VERSION,
      openApi: () =>
        (openApi ??= buildOpenApi(routes, {
          title: 'tenantkit',
          version: VERSION,
          sessionCookieName: config.sessionCookieName,
        })),
    }),
    ...features,
    ...(devMailbox ? devMailboxRoutes(devMailbox, 'tenantkit') : []),
  );
  return routes;
}

export async function startServer(
  config: AppConfig,
  logger: Logger,
  embeddedStarting?: Promise<EmbeddedPostgres>,
): Promise<RunningServer> {
  const infra = await openInfrastructure(config, logger, embeddedStarting);
  const container = createContainer(config, logger, infra);
  const authenticate = container.isBound(TOKENS.Authenticate)
    ? container.get(TOKENS.Authenticate)
    : async () => {
        throw new DomainError('UNAUTHORIZED', 'Authentication required');
      };
  const app = createHttpApp({
    config,
    logger,
    routes: composeRoutes(container, config, infra.devMailbox),
    authenticate,
    rateLimiter: container.get(TOKENS.RateLimiter),
    apiKeyRateRule: { count: config.apiKeyRateLimit, windowSeconds: 60 },
    clientIp: clientIpResolver(config.trustedProxyHops),
    isDependencyDown,
  });
  const server = createServer(app.callback());
  server.keepAliveTimeout = 5_000;
  server.on('clientError', clientErrorResponder({ hsts: config.environment !== 'dev' }));
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  const drain = gracefulDrain(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, '0.0.0.0', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const scheduler = await startJobs(config, container, infra, logger);
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    container,
    infra,
    close(graceMs = 10_000) {
      closing ??= (async () => {
        const { forced } = await drain.close(graceMs);
        if (forced) logger.warn({ grace_ms: graceMs }, 'requests still in flight after the grace period were cut');
        // Work started after a response (a reset email) finishes while the database is open.
        await container.get<AfterResponse>(TOKENS.AfterResponse).drain();
        // Failed sign-ins' audit events, written off the requests' path, likewise.
        await container.get(TOKENS.FailedSignIns).flush();
        // Before the pool closes: an in-process run in progress finishes first.
        await scheduler.stop();
        await container.unbindAllAsync();
        await infra.close();
      })();
      return closing;
    },
  };
}
