import { execFile } from 'node:child_process';
import { chown, mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort, sleep, waitFor } from './ports';

const run = promisify(execFile);

/**
 * A throwaway PostgreSQL cluster for fault tests: its own data dir in a temp folder, its own free
 * port on 127.0.0.1, never the shared server on 5432. Tests stop it, kill it, freeze it and start
 * it again; `destroy()` stops whatever runs and removes the directory (call it in `finally`).
 */
export interface PgCluster {
  port: number;
  /** `postgres://postgres@127.0.0.1:<port>/<name>` */
  url(database?: string): string;
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl stop -m fast`: what an operator's restart does. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** SIGKILL of the postmaster only, as a crash would; its backends notice and exit. */
  kill(): Promise<void>;
  /** SIGSTOP of the postmaster and every backend: a frozen server (the sockets stay open). */
  freeze(): Promise<void>;
  thaw(): Promise<void>;
  destroy(): Promise<void>;
}

async function binDir(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql')).sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql');
  return `/usr/lib/postgresql/${versions[0]}/bin`;
}

/** PostgreSQL refuses to run as root: as root, run its tools as the `postgres` user. */
const asRoot = process.getuid?.() === 0;
async function pgTool(bin: string, tool: string, args: string[]): Promise<string> {
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]] : [join(bin, tool), args];
  const { stdout } = await run(file, argv, { timeout: 60_000 });
  return stdout;
}

async function postgresUid(): Promise<{ uid: number; gid: number }> {
  const { stdout } = await run('id', ['postgres']);
  const uid = Number(/uid=(\d+)/.exec(stdout)?.[1]);
  const gid = Number(/gid=(\d+)/.exec(stdout)?.[1]);
  return { uid, gid };
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = await binDir();
  const dir = await mkdtemp(join(tmpdir(), 'tk-reliability-pg-'));
  const data = join(dir, 'data');
  if (asRoot) {
    const { uid, gid } = await postgresUid();
    await chown(dir, uid, gid);
  }
  const port = await freePort();
  await pgTool(bin, 'initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const options = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c fsync=off', // the machine does not crash in these tests; the server process does
    '-c max_connections=100',
    '-c shared_buffers=32MB',
  ].join(' ');
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const answers = async () => {
    const client = new pg.Client({ connectionString: url(), connectionTimeoutMillis: 1_000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const postmasterPid = async () => Number((await readFile(join(data, 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const children = async (pid: number) => {
    const { stdout } = await run('ps', ['-o', 'pid=', '--ppid', String(pid)]).catch(() => ({ stdout: '' }));
    return stdout.split('\n').map((line) => Number(line.trim())).filter((n) => n > 0);
  };
  const signalAll = async (signal: NodeJS.Signals) => {
    const pid = await postmasterPid();
    for (const target of [pid, ...(await children(pid))]) {
      try {
        process.kill(target, signal);
      } catch {
        // already gone
      }
    }
  };
  let frozen = false;
  const start = async () => {
    // After a SIGKILL the old backends take a moment to notice and exit; until then the shared
    // memory interlock refuses a new postmaster, so retry.
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        await pgTool(bin, 'pg_ctl', ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '30', 'start']);
        break;
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await sleep(250);
      }
    }
    await waitFor('PostgreSQL answers', answers, 30_000);
  };
  await start();
  return {
    port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`create database "${name}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    async stop() {
      await pgTool(bin, 'pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
    },
    start,
    async kill() {
      process.kill(await postmasterPid(), 'SIGKILL');
    },
    async freeze() {
      frozen = true;
      await signalAll('SIGSTOP');
    },
    async thaw() {
      frozen = false;
      await signalAll('SIGCONT');
    },
    async destroy() {
      try {
        if (frozen) await signalAll('SIGCONT');
        await pgTool(bin, 'pg_ctl', ['-D', data, '-m', 'immediate', '-w', '-t', '30', 'stop']).catch(() => undefined);
        // A killed postmaster leaves no one for pg_ctl to stop; its orphans exit on their own.
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
