import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { startTestApp } from '../support/app';
import { createEmptyDatabase, requirePostgres, TEST_PG_URL } from '../support/postgres';

const ROOT = resolve(import.meta.dirname, '../..');

/** Runs `tsx app/main.ts` with only `env` as its APP_* settings; resolves with exit code and output. */
function runMain(env: Record<string, string>, timeoutMs = 60_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('APP_')));
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['app/main.ts'], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`app/main.ts still running after ${timeoutMs} ms:\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

test('APP_ENVIRONMENT=prod with nothing else stops startup, naming every missing setting', { timeout: 90_000 }, async () => {
  const { code, stdout, stderr } = await runMain({ APP_ENVIRONMENT: 'prod' });
  expect(code).not.toBe(0);
  expect(code).not.toBeNull();
  expect(stderr).toContain('Invalid configuration');
  for (const key of ['APP_BASE_WEB_URL', 'APP_BASE_API_URL', 'APP_CRON_SECRET', 'APP_JWT_SECRET_KEY', 'APP_EMAIL_PROVIDER', 'APP_ENCRYPTION_KEY']) {
    expect(stderr).toContain(key);
  }
  expect(stdout).not.toContain('listening');
});

test('an invalid secret is reported without its value', { timeout: 90_000 }, async () => {
  const { code, stderr } = await runMain({ APP_ENVIRONMENT: 'prod', APP_JWT_SECRET_KEY: 'leaky-value' });
  expect(code).toBe(1);
  expect(stderr).toContain('APP_JWT_SECRET_KEY must be at least 16 characters');
  expect(stderr).not.toContain('leaky-value');
});

const postgres = await requirePostgres();

test.skipIf(!postgres)('pending migrations on a PostgreSQL server: startup refuses with one line naming the command', { timeout: 90_000 }, async () => {
  const empty = await createEmptyDatabase();
  try {
    const { code, stdout, stderr } = await runMain({ APP_DATABASE_URL: empty.url, APP_PORT: '0' });
    expect(code).toBe(1);
    expect(stdout).not.toContain('listening');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^tenantkit failed to start: \d+ database migration\(s\) pending \(Migration\d+\w+.*\): run `npm run cli -- migrate` first/);
    expect(lines[0]).toContain('APP_MIGRATE_ON_START=true');
  } finally {
    await empty.drop();
  }
});

test.skipIf(!postgres)('APP_MIGRATE_ON_START=true migrates at startup, and the API then works', { timeout: 90_000 }, async () => {
  const empty = await createEmptyDatabase();
  try {
    const app = await startTestApp({ APP_DATABASE_URL: empty.url, APP_MIGRATE_ON_START: 'true' });
    try {
      expect(app.logs().some((line) => line.msg === 'migrations applied')).toBe(true);
      const signup = await app.request('/auth/signup', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: 'migrated@example.com', password: 'password123', first_name: 'A', last_name: 'B' }),
      });
      expect(signup.status).toBe(201);
    } finally {
      await app.close();
    }
  } finally {
    await empty.drop();
  }
});

/** A loopback port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

test('an unreachable APP_DATABASE_URL: startup waits the stated bound, then exits 1 with one line and no stack', { timeout: 90_000 }, async () => {
  const port = await closedPort();
  const started = performance.now();
  const { code, stdout, stderr } = await runMain({ APP_DATABASE_URL: `postgres://app:s3cret-pw@127.0.0.1:${port}/tenantkit`, APP_PORT: '0', APP_DATABASE_STARTUP_WAIT_SECONDS: '3' });
  const tookMs = performance.now() - started;
  expect(code).toBe(1);
  expect(stdout).not.toContain('listening');
  expect(stderr.trim().split('\n')).toEqual([
    `tenantkit failed to start: the database at 127.0.0.1:${port}/tenantkit is unreachable (connect ECONNREFUSED 127.0.0.1:${port}) after waiting 3 s (APP_DATABASE_STARTUP_WAIT_SECONDS): check APP_DATABASE_URL and that PostgreSQL is running`,
  ]);
  const exitedAt = Date.now();
  const logLines = stdout.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
  const waiting = logLines.filter((line) => line.msg === `database unreachable (connect ECONNREFUSED 127.0.0.1:${port}); waiting for it`);
  expect(waiting).toHaveLength(1);
  expect(`${stdout}${stderr}`).not.toMatch(/\n\s+at |s3cret-pw/);
  // From the first failed attempt to the exit: the bound, give or take a retry and the exit itself.
  const waitedMs = exitedAt - Date.parse(String(waiting[0]!.time));
  expect(waitedMs).toBeGreaterThan(2_500);
  expect(waitedMs).toBeLessThan(3_000 + 2_000);
  console.info(`[startup] unreachable database, 3 s bound: waited ${waitedMs} ms, exit 1 ${Math.round(tookMs)} ms after spawn`);
});

test.skipIf(!postgres)('a database that answers with an error (no such database) stops startup at once, in one line', { timeout: 90_000 }, async () => {
  const url = new URL(TEST_PG_URL);
  url.pathname = '/tk_no_such_database';
  const started = performance.now();
  const { code, stdout, stderr } = await runMain({ APP_DATABASE_URL: url.toString(), APP_PORT: '0', APP_DATABASE_STARTUP_WAIT_SECONDS: '60' });
  expect(code).toBe(1);
  expect(stdout).not.toContain('listening');
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^tenantkit failed to start: the database at .*\/tk_no_such_database refused the connection \(.*tk_no_such_database.*\): check APP_DATABASE_URL$/);
  expect(performance.now() - started).toBeLessThan(60_000);
});
