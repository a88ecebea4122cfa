import type { Logger } from 'pino';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/config';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../adapters/postgres/embedded-postgres';
import { migrate, openOrm } from '../../adapters/postgres/orm';
import { Database } from '../../adapters/postgres/database';
import { SystemClock } from '../../adapters/system/system-clock';
import type { Clock } from '../../core/shared/clock.port';
import type { Mailer } from '../../core/email/mailer.port';
import { createMailer } from './mailer-factory';

/** Long-lived connections opened before the container is built, and closed after it. */
export interface Infrastructure {
  /** The one source of time: use cases get it from the container, the database stamps rows with it. */
  clock: Clock;
  database: Database;
  /** Present when APP_REDIS_URL is set (jobs) or the rate-limit store is Redis. */
  redis: Redis | undefined;
  /** Redis for rate-limit counters, when APP_RATE_LIMIT_STORAGE_URI names one. */
  rateLimitRedis: Redis | undefined;
  /** The email provider chosen by APP_EMAIL_PROVIDER. */
  mailer: Mailer;
  close(): Promise<void>;
}

export function redisClient(url: string): Redis {
  // RESP2 keeps the wire behaviour BullMQ and rate-limiter-flexible were written against.
  return new Redis(url, { protocol: 2, maxRetriesPerRequest: null, enableOfflineQueue: true, lazyConnect: false });
}

function rateLimitRedisUrl(uri: string): string | undefined {
  const plain = uri.replace(/^async\+/, '');
  return plain.startsWith('redis') ? plain : undefined;
}

/**
 * `embedded` lets `npm start` begin opening PGlite while the rest of the app's modules are still
 * loading (app/main.ts); without it the embedded database is opened here.
 */
export async function openInfrastructure(
  config: AppConfig,
  logger: Logger,
  embeddedStarting?: Promise<EmbeddedPostgres>,
): Promise<Infrastructure> {
  let embedded: EmbeddedPostgres | undefined;
  if (!config.databaseUrl) {
    embedded = await (embeddedStarting ?? startEmbeddedPostgres(config.dataDir));
    logger.info({ data_dir: config.dataDir }, 'embedded PostgreSQL (PGlite) started');
  }
  const clock = new SystemClock();
  try {
    const orm = await openOrm(embedded ? { embedded: embedded.connection } : { clientUrl: config.databaseUrl });
    const database = new Database(orm, clock);
    if (embedded) {
      const applied = await migrate(orm);
      if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
    }
    const redis = config.redisUrl ? redisClient(config.redisUrl) : undefined;
    const limitUrl = rateLimitRedisUrl(config.rateLimitStorageUri);
    const rateLimitRedis = limitUrl ? (limitUrl === config.redisUrl && redis ? redis : redisClient(limitUrl)) : undefined;
    for (const client of new Set([redis, rateLimitRedis])) {
      client?.on('error', (error) => logger.warn({ err: error }, 'redis connection error'));
    }
    const mailer = await createMailer(config.email, logger);
    return {
      clock,
      database,
      redis,
      rateLimitRedis,
      mailer,
      async close() {
        for (const client of new Set([redis, rateLimitRedis])) await client?.quit().catch(() => client.disconnect());
        await database.close();
        await embedded?.close();
      },
    };
  } catch (error) {
    await embedded?.close();
    throw error;
  }
}
