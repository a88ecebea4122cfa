import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { migrations } from '../../adapters/postgres/migrations';
import { createTestPglite } from '../support/postgres';
import { insertOrganization } from '../support/sessions';

/**
 * The real `npm start` process on the embedded database: it serves, drains and exits 0 on
 * SIGTERM, refuses a second process on its data dir, and keeps data and migration state across
 * restarts. `tsx app/main.ts` is run directly (what `npm start` runs): npm and npx do not pass
 * SIGTERM on to it.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;

interface AppProcess {
  child: ChildProcess;
  url: string;
  output(): { stdout: string; stderr: string };
  exited: Promise<number | null>;
}

const started: AppProcess[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

async function startApp(dataDir: string): Promise<AppProcess> {
  const port = await freePort();
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('APP_')));
  // As `npm start` runs it: node with tsx's loader, the app in this very process. Not tsx's CLI,
  // which runs the app in a child and relays signals to it: when the child has not acknowledged a
  // signal within 30 ms (its event loop busy starting the embedded database), the CLI kills it
  // outright, and an early SIGTERM then ends in exit 143 however the app handles it.
  const child = spawn(process.execPath, ['--import', 'tsx', 'app/main.ts'], {
    cwd: ROOT,
    env: { ...env, APP_PORT: String(port), APP_DATA_DIR: dataDir, APP_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group, so cleanup reaches anything it started
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const app = { child, url: `http://127.0.0.1:${port}`, output: () => ({ stdout, stderr }), exited };
  started.push(app);
  return app;
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls GET /ping until 200; fails early if the process exits. Returns the ms it took. */
async function waitUntilServing(app: AppProcess): Promise<number> {
  const began = performance.now();
  let exitCode: number | null | undefined;
  void app.exited.then((code) => (exitCode = code));
  while (performance.now() - began < START_TIMEOUT_MS) {
    if (exitCode !== undefined) throw new Error(`exited with ${exitCode} before serving:\n${app.output().stderr}`);
    const status = await fetch(`${app.url}/ping`, { signal: AbortSignal.timeout(1_000) }).then((r) => r.status, () => 0);
    if (status === 200) return Math.round(performance.now() - began);
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`not serving within ${START_TIMEOUT_MS} ms:\n${app.output().stderr}`);
}

async function stop(app: AppProcess): Promise<number | null> {
  app.child.kill('SIGTERM');
  return within(app.exited, STOP_TIMEOUT_MS, 'exit after SIGTERM');
}

/** Kills what is left of a process (and anything it started) after a failed test. */
function kill(app: AppProcess): void {
  if (app.child.exitCode !== null || app.child.signalCode !== null || !app.child.pid) return;
  try {
    process.kill(-app.child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function health(app: AppProcess): Promise<unknown> {
  const res = await fetch(`${app.url}/health`, { signal: AbortSignal.timeout(5_000) });
  return { status: res.status, body: await res.json() };
}

async function migrationRows(dataDir: string) {
  const pglite = await createTestPglite(dataDir);
  try {
    const rows = await pglite.database.select<{ name: string; executed_at: Date }>('select name, executed_at from mikro_orm_migrations order by id', []);
    return { applied: pglite.applied, rows };
  } finally {
    await pglite.close();
  }
}

describe('the npm start process on the embedded database', () => {
  let dataDir: string;

  afterAll(async () => {
    started.forEach(kill);
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('first start initialises the data dir, refuses a second process, and exits 0 on SIGTERM', { timeout: 300_000 }, async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'tk-restart-'));
    const first = await startApp(dataDir);
    try {
      console.log(`first start (empty data dir, initdb) served after ${await waitUntilServing(first)} ms`);
      expect(await health(first)).toEqual({ status: 200, body: { status: 'ok', checks: { database: 'ok', redis: 'disabled' } } });

      const second = await startApp(dataDir);
      const secondCode = await within(second.exited, START_TIMEOUT_MS, 'second process to give up');
      expect(secondCode).not.toBe(0);
      expect(second.output().stderr).toMatch(/embedded database in .* is in use by process \d+/);
      const last = await fetch(`${first.url}/ping`, { headers: { 'X-Request-Id': 'last-before-sigterm' }, signal: AbortSignal.timeout(5_000) });
      expect(last.status).toBe(200);

      expect(await stop(first)).toBe(0);
      // Log lines are written asynchronously: the ones still buffered at exit are written out, not lost.
      const lines = first.output().stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.find((line) => line.request_id === 'last-before-sigterm')).toMatchObject({ msg: 'request', path: '/ping', status: 200 });
      expect(lines.at(-1)).toMatchObject({ msg: 'stopped' });
    } finally {
      kill(first);
    }
    expect(existsSync(join(dataDir, 'tenantkit.lock'))).toBe(false);
  });

  test('a SIGTERM while it starts waits for the start, then drains and exits 0', { timeout: 300_000 }, async () => {
    // A fresh data dir: initdb and the migrations make the start long, and the lock file appears
    // at its beginning, so the signal lands before the server listens.
    const freshDir = await mkdtemp(join(tmpdir(), 'tk-early-stop-'));
    const app = await startApp(freshDir);
    try {
      const began = performance.now();
      while (!existsSync(join(freshDir, 'tenantkit.lock'))) {
        if (performance.now() - began > START_TIMEOUT_MS) throw new Error(`no lock file within ${START_TIMEOUT_MS} ms:\n${app.output().stderr}`);
        await new Promise((done) => setTimeout(done, 10));
      }
      const code = await within(
        (async () => {
          app.child.kill('SIGTERM');
          return app.exited;
        })(),
        START_TIMEOUT_MS,
        'exit after an early SIGTERM',
      );
      expect(code, app.output().stderr).toBe(0);
      const lines = app.output().stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.map((line) => line.msg)).toContain('shutting down: draining in-flight requests');
      expect(lines.at(-1)).toMatchObject({ msg: 'stopped' });
      expect(existsSync(join(freshDir, 'tenantkit.lock'))).toBe(false);
    } finally {
      kill(app);
      await rm(freshDir, { recursive: true, force: true });
    }
  });

  test('data written between runs survives a restart, and migrations are not re-applied', { timeout: 300_000 }, async () => {
    expect(dataDir).toBeDefined();
    const before = await migrationRows(dataDir);
    expect(before.applied).toEqual([]);
    expect(before.rows.map((row) => row.name)).toEqual(migrations.map((m) => m.name));

    const direct = await createTestPglite(dataDir);
    try {
      await insertOrganization(direct.database, 'kept; across restarts');
    } finally {
      await direct.close();
    }

    const again = await startApp(dataDir);
    try {
      console.log(`restart (existing data dir) served after ${await waitUntilServing(again)} ms`);
      expect(await health(again)).toEqual({ status: 200, body: { status: 'ok', checks: { database: 'ok', redis: 'disabled' } } });
      expect(await stop(again)).toBe(0);
    } finally {
      kill(again);
    }
    expect(again.output().stdout).not.toContain('migrations applied');

    const after = await createTestPglite(dataDir);
    try {
      expect(after.applied).toEqual([]);
      const rows = await after.database.select('select name from organization', []);
      expect(rows).toEqual([{ name: 'kept; across restarts' }]);
      const migrationState = await after.database.select('select name, executed_at from mikro_orm_migrations order by id', []);
      expect(migrationState).toEqual(before.rows);
    } finally {
      await after.close();
    }
  });
});
