import { loadEnvFile } from '../config/env-file';
import { hostname } from 'node:os';
import { ConfigError, loadConfig, type AppConfig } from '../config/config';
import { createContainer } from '../container/container';
import { openInfrastructure } from '../container/infrastructure';
import { TOKENS } from '../container/tokens';
import { jobPeriods, keepSchedulesRegistered, recurringJobs } from '../jobs/jobs';
import type { Logger } from 'pino';
import { createAppLogger, flushLogs } from '../logging';
import { exitWhenClosed, onStopSignals, runMain } from '../process-exit';
import { BullmqScheduler } from '../../adapters/bullmq/bullmq-scheduler';
import { BullmqWorkerHost } from '../../adapters/bullmq/bullmq-worker';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function settings(): AppConfig {
  let config: AppConfig;
  try {
    loadEnvFile();
    config = loadConfig(process.env).config;
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  const missing = [
    config.redisUrl ? undefined : 'APP_REDIS_URL (redis://…): the worker takes its jobs from BullMQ queues in Redis',
    config.databaseUrl
      ? undefined
      : 'APP_DATABASE_URL (postgres://…): the worker shares the API\'s database, and the embedded one opens in one process only',
  ].filter((line) => line !== undefined);
  if (missing.length > 0) {
    fail(`npm run worker needs:\n${missing.map((line) => `  - ${line}`).join('\n')}\nWithout Redis, \`npm start\` runs the jobs itself.`);
  }
  return config;
}

/**
 * `npm run worker`: the same container as the API, the recurring jobs registered as BullMQ job
 * schedulers (idempotent) and one worker per queue. SIGTERM lets the active jobs finish, then
 * exits 0; a second signal exits at once, and BullMQ hands the abandoned job to another worker.
 */
async function main(): Promise<void> {
  const config = settings();
  const logger = createAppLogger(config);
  // Log lines are written asynchronously: whatever is still buffered goes out before any exit.
  process.once('exit', () => flushLogs(logger));
  const starting = start(config, logger);

  // The signals are handled from the start, as the API's are: a SIGTERM while the worker connects
  // or while its queues start (a quick redeploy) waits for the start, then stops as usual, so a
  // job a queue has already taken finishes instead of being cut off and left to stall. A second
  // signal exits at once.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now; the active job will be retried by another worker');
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: waiting for the active jobs');
    exitWhenClosed(logger, starting.then((close) => close()), 'worker stopped');
  };
  onStopSignals(shutdown);
  await starting;
}

/** Connects, registers the recurring jobs and starts the queues; resolves to what stops them all. */
async function start(config: AppConfig, logger: Logger): Promise<() => Promise<void>> {
  const infra = await openInfrastructure(config, logger);
  const container = createContainer(config, logger, infra);
  const connection = infra.redis;
  if (!connection) throw new Error('Redis client missing although APP_REDIS_URL is set');
  const jobs = recurringJobs(container.get(TOKENS.JobUseCases), jobPeriods(config, 'worker'));
  const prefix = config.redisKeyPrefix;
  const scheduler = new BullmqScheduler({ connection, prefix });
  const host = new BullmqWorkerHost({ connection, logger, prefix, name: `${hostname()}:${process.pid}` });
  for (const job of jobs) host.register(job.name, () => job.run());
  keepSchedulesRegistered(connection, scheduler, jobs, logger);
  await host.start();
  logger.info({ jobs: jobs.map(({ name, everyMs }) => ({ name, every_ms: everyMs })) }, 'worker running');
  return async () => {
    await host.close();
    await scheduler.stop();
    await container.unbindAllAsync();
    await infra.close();
  };
}

runMain('tenantkit worker', main);
