import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { loadConfig, type AppConfig } from '../../app/config/config';
import { createLogger } from '../../app/logging';
import { startServer, type RunningServer } from '../../app/server';
import { createTestDatabase, type TestDatabase } from './postgres';

/** Settings every test app starts with; a test's own `env` overrides them. */
export const TEST_APP_DEFAULTS: Readonly<Record<string, string>> = Object.freeze({
  APP_PORT: '0',
  APP_PASSWORD_HASH_COST: '4',
  APP_LOG_LEVEL: 'info',
});

export type LogLine = Record<string, unknown>;

/** A pino logger writing JSON lines into memory, for tests that read the log. */
export function createMemoryLogger(level = 'info'): { logger: Logger; logs(): LogLine[] } {
  const lines: LogLine[] = [];
  const destination = {
    write(chunk: string) {
      for (const line of chunk.split('\n')) if (line.trim()) lines.push(JSON.parse(line) as LogLine);
    },
  };
  return { logger: createLogger(level, destination), logs: () => [...lines] };
}

export interface TestApp {
  /** `http://127.0.0.1:<port>` */
  url: string;
  config: AppConfig;
  /** Every log line written so far, parsed. */
  logs(): LogLine[];
  /** `fetch` against the app: `request('/ping')`, with a 10 s time-out unless `init.signal` is given. */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** The app's own server handle (container, infrastructure). */
  server: RunningServer;
  /** The test database, when the app runs on the local server: seed or inspect through it. */
  db: TestDatabase | undefined;
  /** Stops the server, then drops the database (or removes the PGlite data dir). Idempotent. */
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** `postgres` (default): a fresh `tk_test_*` database; `pglite`: embedded, in a temp data dir. */
  database?: 'postgres' | 'pglite';
}

/**
 * Starts the real server in-process, exactly as `npm start` composes it, on a random port and
 * its own database. An `APP_DATABASE_URL` in `env` is used as given (no database is created).
 */
export async function startTestApp(env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const storage: { db?: TestDatabase; dataDir?: string } = {};
  const cleanUp = async () => {
    await storage.db?.drop();
    if (storage.dataDir) await rm(storage.dataDir, { recursive: true, force: true });
  };
  const storageEnv: Record<string, string> = {};
  try {
    if (env.APP_DATABASE_URL === undefined && options.database === 'pglite') {
      storage.dataDir = await mkdtemp(join(tmpdir(), 'tk-app-'));
      storageEnv.APP_DATA_DIR = storage.dataDir;
    } else if (env.APP_DATABASE_URL === undefined) {
      storage.db = await createTestDatabase();
      storageEnv.APP_DATABASE_URL = storage.db.url;
    }
    const { config } = loadConfig({ ...TEST_APP_DEFAULTS, ...storageEnv, ...env });
    const memory = createMemoryLogger(config.logLevel);
    const server = await startServer(config, memory.logger);
    let closing: Promise<void> | undefined;
    return {
      url: server.url,
      config,
      logs: memory.logs,
      server,
      db: storage.db,
      request: (path, init = {}) => fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(10_000), ...init }),
      close() {
        closing ??= (async () => {
          try {
            await server.close(2_000);
          } finally {
            await cleanUp();
          }
        })();
        return closing;
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
