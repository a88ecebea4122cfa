import type { Logger } from 'pino';

/**
 * The end of a graceful shutdown, for the server and the worker alike: exits 0 once `closing` has
 * settled (logging `stopped`), or 1 with the error when it failed.
 */
export function exitWhenClosed(logger: Logger, closing: Promise<unknown>, stopped: string): void {
  closing.then(
    () => {
      logger.info(stopped);
      process.exit(0);
    },
    (error: unknown) => {
      logger.error({ err: error }, 'unclean shutdown');
      process.exit(1);
    },
  );
}

/** Calls `shutdown` with the signal's name on SIGTERM and SIGINT (each time: it decides about repeats). */
export function onStopSignals(shutdown: (signal: string) => void): void {
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/** Runs a process's `main`: a failure to start is one line on stderr, naming `what`, and exit 1. */
export function runMain(what: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${what} failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
