import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../../adapters/postgres/connection-errors';

/** Startup refuses to go on without its database; the message is the one line `npm start` prints before exiting 1. */
export class DatabaseStartupError extends Error {
  override readonly name = 'DatabaseStartupError';
}

const RETRY_MS = 500;

/** `postgres://user:secret@host:5432/db` → `host:5432/db`: where, without the credentials. */
export function databaseTarget(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.host}${parsed.pathname}`;
  } catch {
    return 'APP_DATABASE_URL';
  }
}

const reason = (error: unknown): string => {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' && message !== '' ? message : String(error);
  return typeof code === 'string' && !text.includes(code) ? `${code} ${text}` : text;
};

/**
 * Waits for the database at startup: an unreachable one is retried every half second for up to
 * `waitSeconds` (a database starting beside the API, a failover), then startup stops with one
 * line naming where and why. A database that answers with an error (wrong password, no such
 * database) stops startup at once: waiting would not change it. Either way a wrong
 * APP_DATABASE_URL fails fast and plainly, instead of an API that says "listening" and serves
 * 503s. Nothing but the target's host, port and name appears, never the credentials.
 */
export async function waitForDatabase(
  ping: () => Promise<void>,
  options: { url: string; waitSeconds: number; logger: Logger; sleep?: (ms: number) => Promise<void> },
): Promise<void> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const target = databaseTarget(options.url);
  const deadline = performance.now() + options.waitSeconds * 1_000;
  let reported = false;
  for (;;) {
    try {
      await ping();
      if (reported) options.logger.info({ database: target }, 'database reachable: starting');
      return;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) {
        throw new DatabaseStartupError(`the database at ${target} refused the connection (${reason(error)}): check APP_DATABASE_URL`);
      }
      if (performance.now() + RETRY_MS > deadline) {
        throw new DatabaseStartupError(
          `the database at ${target} is unreachable (${reason(error)}) after waiting ${options.waitSeconds} s ` +
            '(APP_DATABASE_STARTUP_WAIT_SECONDS): check APP_DATABASE_URL and that PostgreSQL is running',
        );
      }
      if (!reported) {
        reported = true;
        options.logger.warn({ database: target, wait_seconds: options.waitSeconds }, `database unreachable (${reason(error)}); waiting for it`);
      }
      await sleep(RETRY_MS);
    }
  }
}
