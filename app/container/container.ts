import 'reflect-metadata';
import { Container, ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config';
import type { Infrastructure } from './infrastructure';
import { TOKENS } from './tokens';
import { FlexibleRateLimiter } from '../../adapters/rate-limit/flexible-rate-limiter';
import { AfterResponse } from '../http/after-response';
import { BoundedMemoryRateLimiter } from '../../adapters/rate-limit/bounded-memory-rate-limiter';
import { isDatabaseUnavailable } from '../../adapters/postgres/connection-errors';
import type { HealthCheck } from '../http/routes/system.routes';
import { featureModules } from './features';

/** Binds what every context shares: settings, logging, time, storage, limits, health. */
function infrastructureModule(config: AppConfig, logger: Logger, infra: Infrastructure): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.Config).toConstantValue(config);
    bind(TOKENS.Logger).toConstantValue(logger);
    bind(TOKENS.AfterResponse).toConstantValue(new AfterResponse(logger));
    bind(TOKENS.Clock).toConstantValue(infra.clock);
    bind(TOKENS.Database).toConstantValue(infra.database);
    bind(TOKENS.UnitOfWork).toConstantValue(infra.database);
    bind(TOKENS.Mailer).toConstantValue(infra.mailer);
    // Without Redis the counters live in this process, bounded (a flood of addresses cannot grow them).
    bind(TOKENS.RateLimiter).toConstantValue(
      infra.rateLimitRedis ? new FlexibleRateLimiter(infra.rateLimitRedis) : new BoundedMemoryRateLimiter(infra.clock),
    );
    bind<HealthCheck>(TOKENS.HealthCheck).toConstantValue({
      name: 'database',
      required: true,
      check: () => infra.database.ping(),
    });
    const redis = infra.redis;
    if (redis) {
      bind<HealthCheck>(TOKENS.HealthCheck).toConstantValue({
        name: 'redis',
        required: true,
        check: async () => {
          await redis.ping();
        },
      });
    }
  });
}

export function isDependencyDown(error: unknown): boolean {
  if (isDatabaseUnavailable(error)) return true;
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'MaxRetriesPerRequestError';
}

export function createContainer(config: AppConfig, logger: Logger, infra: Infrastructure): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.load(infrastructureModule(config, logger, infra), ...featureModules());
  return container;
}
