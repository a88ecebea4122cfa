import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config';
import type { Infrastructure } from './infrastructure';
import { TOKENS } from './tokens';
import { AfterResponse } from '../http/after-response';
import { FlexibleRateLimiter } from '../../adapters/rate-limit/flexible-rate-limiter';
import { BoundedMemoryRateLimiter } from '../../adapters/rate-limit/bounded-memory-rate-limiter';
import { AesGcmAtRestEncryption } from '../../adapters/crypto/aes-gcm-at-rest-encryption';

/** What every context shares: settings, logging, time, storage, mail, rate limits, at-rest encryption, health checks. */
export function infrastructureModule(config: AppConfig, logger: Logger, infra: Infrastructure): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.Config).toConstantValue(config);
    bind(TOKENS.Logger).toConstantValue(logger);
    bind(TOKENS.AfterResponse).toConstantValue(new AfterResponse(logger));
    bind(TOKENS.Clock).toConstantValue(infra.clock);
    bind(TOKENS.Database).toConstantValue(infra.database);
    bind(TOKENS.UnitOfWork).toConstantValue(infra.database);
    bind(TOKENS.Mailer).toConstantValue(infra.mailer);
    // In this process the counters are bounded (a flood of addresses cannot grow them); with Redis
    // they are shared, and the in-process ones decide while Redis is away.
    const local = new BoundedMemoryRateLimiter(infra.clock);
    bind(TOKENS.RateLimiter).toConstantValue(
      infra.rateLimitRedis
        ? new FlexibleRateLimiter({ redis: infra.rateLimitRedis, fallback: local, keyPrefix: `${config.redisKeyPrefix}:rl`, logger })
        : local,
    );
    bind(TOKENS.AtRestEncryption).toConstantValue(new AesGcmAtRestEncryption(infra.encryptionKey));
    bind(TOKENS.HealthCheck).toConstantValue({ name: 'database', required: true, check: () => infra.database.ping() });
    const redis = infra.redis;
    if (redis) {
      bind(TOKENS.HealthCheck).toConstantValue({
        name: 'redis',
        required: true,
        check: async () => {
          await redis.ping();
        },
      });
    }
  });
}
