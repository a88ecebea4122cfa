import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { startTestApp } from '../support/app';
import { createEmptyDatabase, requirePostgres } from '../support/postgres';

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
