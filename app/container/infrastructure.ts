import type { Logger } from 'pino';
import { Redis } from 'ioredis';
import type { AppConfig } from '../config/config';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../adapters/postgres/embedded-postgres';
import { migrate, openOrm, pendingMigrations } from '../../adapters/postgres/orm';
import { Database } from '../../adapters/postgres/database';
import { isDatabaseUnavailable } from '../../adapters/postgres/connection-errors';
import { SystemClock } from '../../adapters/system/system-clock';
import type { Clock } from '../../core/shared/clock.port';
import type { Mailer } from '../../core/email/mailer.port';
import { createMailer } from './mailer-factory';
import { DevMailbox, MAILBOX_CAPACITY } from '../../adapters/email/dev-mailbox';
import { rateLimitRedisOptions } from '../../adapters/rate-limit/flexible-rate-limiter';
import { resolveEncryptionKey } from '../config/encryption-key';
import { waitForDatabase } from './database-startup';

/** Long-lived connections opened before the container is built, and closed after it. */
export interface Infrastructure {
  /** The one source of time: use cases get it from the container, the database stamps rows with it. */
  clock: Clock;
  database: Database;
  /** Present when APP_REDIS_URL is set (jobs) or the rate-limit store is Redis. */
  redis: Redis | undefined;
  /** Redis for rate-limit counters, when APP_RATE_LIMIT_STORAGE_URI names one: its own client, which fails fast. */
  rateLimitRedis: Redis | undefined;
  /** The email provider chosen by APP_EMAIL_PROVIDER. */
  mailer: Mailer;
  /** In `dev` with the stub provider: every email it took, for `/dev/mailbox`. */
  devMailbox?: DevMailbox;
  /** The AES-256 key that seals secrets at rest (APP_ENCRYPTION_KEY, or dev's key under APP_DATA_DIR). */
  encryptionKey: Buffer;
  close(): Promise<void>;
}

export function redisClient(url: string): Redis {
  // RESP2 keeps the wire behaviour BullMQ and rate-limiter-flexible were written against.
  return new Redis(url, { protocol: 2, maxRetriesPerRequest: null, enableOfflineQueue: true, lazyConnect: false });
}

/**
 * Rate limits sit on the request path: their client never queues a command while Redis is away
 * (the BullMQ client above does, and would hold every rate-limited request until Redis returns).
 */
function rateLimitRedisClient(url: string): Redis {
  return new Redis(url, { protocol: 2, lazyConnect: false, ...rateLimitRedisOptions });
}

/**
 * The rate limits' client never queues a command, so a request that arrives before it has
 * connected is decided in memory, per instance, until its next probe. Startup therefore waits a
 * short bound for the connection before the server listens; a Redis that is down at startup does
 * not stop it (the limits count in memory and the log says so).
 */
const RATE_LIMIT_CONNECT_WAIT_MS = 2_000;

async function connectedWithin(client: Redis, ms: number): Promise<void> {
  if (client.status === 'ready') return;
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    client.once('ready', done);
  });
}

/**
 * ioredis reports every failed reconnection attempt; one line when the connection is lost and one
 * when it is back keep an outage readable (and the log small).
 */
function reportOutages(client: Redis, role: string, logger: Logger): void {
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger.warn({ redis_client: role, err: { message: error.message } }, 'redis unreachable; reconnecting in the background');
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger.info({ redis_client: role }, 'redis connection restored');
  });
}

function rateLimitRedisUrl(uri: string): string | undefined {
  const plain = uri.replace(/^async\+/, '');
  return plain.startsWith('redis') ? plain : undefined;
}

/** Startup refuses a database whose migrations are pending, naming the one command that fixes it. */
export class PendingMigrationsError extends Error {
  override readonly name = 'PendingMigrationsError';
  constructor(readonly pending: readonly string[]) {
    super(
      `${pending.length} database migration(s) pending (${pending.join(', ')}): run \`npm run cli -- migrate\` first ` +
        '(or set APP_MIGRATE_ON_START=true on a single-instance deployment)',
    );
  }
}

/**
 * The embedded database is only ever opened by one process, so it migrates itself. A server is
 * shared by several instances: migrating there is a deliberate step (`npm run cli -- migrate`, or
 * APP_MIGRATE_ON_START=true for a single instance), and an instance that finds migrations pending
 * refuses to start rather than serve 500s on tables that do not exist yet.
 */
async function bringSchemaUpToDate(orm: Awaited<ReturnType<typeof openOrm>>, config: AppConfig, embedded: boolean, logger: Logger): Promise<void> {
  if (embedded || config.migrateOnStart) {
    // On a server the serving pool's time limits would cut a long migration: it gets its own.
    const migrator = embedded ? orm : await openOrm({ clientUrl: config.databaseUrl, purpose: 'migrate', poolMax: 1 });
    try {
      const applied = await migrate(migrator);
      if (applied.length > 0) logger.info({ migrations: applied }, 'migrations applied');
    } finally {
      if (migrator !== orm) await migrator.close(true);
    }
    return;
  }
  let pending: string[];
  try {
    pending = await pendingMigrations(orm);
  } catch (error) {
    // A database that is down at startup is an outage, not a schema problem: the API starts, /health
    // reports it and requests answer 503 until it is back (an orchestrator's restarts would not help).
    if (!isDatabaseUnavailable(error)) throw error;
    logger.warn({ err: { message: (error as Error).message } }, 'database unreachable at startup: could not check for pending migrations');
    return;
  }
  if (pending.length > 0) throw new PendingMigrationsError(pending);
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
  const encryption = await resolveEncryptionKey(config);
  if (encryption.source !== 'APP_ENCRYPTION_KEY') {
    logger.warn({ path: encryption.path }, `APP_ENCRYPTION_KEY is unset: using the dev key kept in APP_DATA_DIR (${encryption.source})`);
  }
  let embedded: EmbeddedPostgres | undefined;
  if (!config.databaseUrl) {
    embedded = await (embeddedStarting ?? startEmbeddedPostgres(config.dataDir));
    logger.info({ data_dir: config.dataDir }, 'embedded PostgreSQL (PGlite) started');
  }
  const clock = new SystemClock();
  try {
    const orm = await openOrm(embedded ? { embedded: embedded.connection } : { clientUrl: config.databaseUrl });
    const database = new Database(orm, clock);
    try {
      if (config.databaseUrl) {
        await waitForDatabase(() => database.ping(), { url: config.databaseUrl, waitSeconds: config.databaseStartupWaitSeconds, logger });
      }
      await bringSchemaUpToDate(orm, config, Boolean(embedded), logger);
    } catch (error) {
      await database.close();
      throw error;
    }
    const redis = config.redisUrl ? redisClient(config.redisUrl) : undefined;
    const limitUrl = rateLimitRedisUrl(config.rateLimitStorageUri);
    const rateLimitRedis = limitUrl ? rateLimitRedisClient(limitUrl) : undefined;
    if (redis) reportOutages(redis, 'jobs', logger);
    if (rateLimitRedis) reportOutages(rateLimitRedis, 'rate-limits', logger);
    if (rateLimitRedis) await connectedWithin(rateLimitRedis, RATE_LIMIT_CONNECT_WAIT_MS);
    const devMailbox =
      config.environment === 'dev' && config.email.provider === 'stub' ? new DevMailbox(MAILBOX_CAPACITY, () => clock.now()) : undefined;
    const mailer = await createMailer(config.email, logger, devMailbox);
    return {
      clock,
      database,
      redis,
      rateLimitRedis,
      mailer,
      devMailbox,
      encryptionKey: encryption.key,
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
