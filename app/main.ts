import { loadEnvFile } from './config/env-file';
import { ConfigError, loadConfig } from './config/config';
import { createAppLogger, flushLogs } from './logging';
import { exitWhenClosed, onStopSignals, runMain } from './process-exit';
import { logRuntimeStats } from './runtime-stats';

/** `npm start`: parse settings, open storage, serve HTTP, drain on SIGTERM. */
async function main(): Promise<void> {
  let loaded;
  try {
    loadEnvFile();
    loaded = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const { config, warnings } = loaded;
  const logger = createAppLogger(config);
  // Log lines are written asynchronously: whatever is still buffered goes out before any exit.
  process.once('exit', () => flushLogs(logger));
  for (const warning of warnings) logger.warn(warning);
  // Open the embedded database while the app's modules load: the two overlap, and startup on
  // an existing data dir stays well under 3 s (docs/architecture.md, Startup).
  const embedded = config.databaseUrl
    ? undefined
    : import('../adapters/postgres/embedded-postgres').then((m) => m.startEmbeddedPostgres(config.dataDir));
  embedded?.catch(() => undefined); // awaited (and reported) by startServer
  const starting = import('./server').then(({ startServer }) => startServer(config, logger, embedded));

  // The signals are handled from before the server listens: it serves /ping while the jobs still
  // start, and a SIGTERM in that window (a quick redeploy) would otherwise kill the process with no
  // drain. A signal during startup waits for it to finish, then drains as usual: a half-initialised
  // embedded data dir is never left behind. That wait is bounded by the startup's own limits (a
  // database server still unreachable after APP_DATABASE_STARTUP_WAIT_SECONDS fails the start: exit 1).
  // Ctrl-C in a terminal reaches the process twice (the terminal signals its whole process group,
  // and npm passes its own SIGINT on), and an impatient user presses it again: the first signal
  // starts the drain, any later one is noted and ignored, so nothing cuts a write half done or
  // leaves the embedded database unclosed. The drain itself is bounded (10 s), so this always ends.
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) {
      logger.info({ signal }, 'already shutting down: waiting for in-flight requests and the database to close');
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down: draining in-flight requests');
    exitWhenClosed(logger, starting.then((running) => running.close()), 'stopped');
  };
  onStopSignals(shutdown);
  const running = await starting;
  logger.info({ url: running.url, environment: config.environment, mode: config.mode }, 'tenantkit listening');
  if (logger.isLevelEnabled('debug')) logRuntimeStats(logger);
}

runMain('tenantkit', main);
