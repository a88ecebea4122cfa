import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdir, open, readFile, rm, chmod } from 'node:fs/promises';
import { join, resolve } from 'node:path';

/**
 * The embedded default database: PGlite (the PostgreSQL engine compiled to WebAssembly) served
 * over the PostgreSQL wire protocol, so the ordinary `@mikro-orm/postgresql` driver, the same
 * migrations and the same repository SQL run on it (docs/decisions/0001-embedded-postgres.md).
 *
 * PGlite is a single session: the pool that talks to it must hold ONE connection, and code must
 * never query outside an open transaction from inside it (see Database.transaction).
 */
export interface EmbeddedPostgres {
  /** Where the stock driver connects: a unix socket directory (host starts with `/`) or 127.0.0.1. */
  readonly connection: { host: string; port: number };
  close(): Promise<void>;
}

/** Unix socket paths are limited to ~107 bytes; past that we fall back to loopback TCP. */
const MAX_SOCKET_PATH = 100;

export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const root = resolve(dataDir);
  await mkdir(root, { recursive: true, mode: 0o700 });
  const releaseLock = await acquireLock(join(root, 'tenantkit.lock'));
  try {
    const db = await PGlite.create({ dataDir: join(root, 'pgdata') });
    const socketDir = join(root, 'run');
    const socketPath = join(socketDir, '.s.PGSQL.5432');
    const useUnixSocket = socketPath.length <= MAX_SOCKET_PATH && process.platform !== 'win32';
    if (useUnixSocket) {
      await mkdir(socketDir, { recursive: true, mode: 0o700 });
      await chmod(socketDir, 0o700);
      await rm(socketPath, { force: true }); // stale from a crash; we hold the lock
    }
    // Two connections: one for the app's pool, one spare so `psql` can look in while it runs.
    const server = new PGLiteSocketServer({
      db,
      maxConnections: 2,
      ...(useUnixSocket ? { path: socketPath } : { host: '127.0.0.1', port: 0 }),
    });
    await server.start();
    const connection = useUnixSocket
      ? { host: socketDir, port: 5432 }
      : { host: '127.0.0.1', port: Number(server.getServerConn().split(':').pop()) };
    return {
      connection,
      async close() {
        await server.stop();
        await db.close();
        await releaseLock();
      },
    };
  } catch (error) {
    await releaseLock();
    throw error;
  }
}

/**
 * PGlite has no inter-process lock: two processes on one data dir silently lose writes.
 * A pid lockfile refuses the second process; a lock left by a dead process is taken over.
 */
async function acquireLock(path: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const handle = await open(path, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await readFile(path, 'utf8').catch(() => '')).trim());
      if (owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `The embedded database in ${path.replace(/\/tenantkit\.lock$/, '')} is in use by process ${owner}. ` +
            'Stop it first, or set APP_DATA_DIR to another directory.',
        );
      }
      await rm(path, { force: true });
    }
  }
  throw new Error(`Could not lock ${path}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
