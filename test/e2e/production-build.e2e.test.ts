import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';

/**
 * `npm run build:server` then `npm run start:prod`: production runs the compiled JavaScript in
 * dist/server, not TypeScript through tsx. The bundle must serve what the TypeScript serves,
 * files it reads beside itself (the bcrypt worker, the docs page's assets) included.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const postgres = await requirePostgres();

describe.skipIf(!postgres)('the production build', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase();
    await promisify(execFile)(process.execPath, ['app/build-server.mjs'], { cwd: ROOT, timeout: 120_000 });
  }, 180_000);
  afterAll(() => db?.drop());

  it('starts from dist/server, answers, hashes a password in its worker thread, and stops cleanly on SIGTERM', async () => {
    const child = spawn(process.execPath, ['--enable-source-maps', 'dist/server/main.js'], {
      cwd: ROOT,
      env: { ...process.env, APP_DATABASE_URL: db.url, APP_PORT: '0', APP_LOG_FORMAT: 'json', APP_PASSWORD_HASH_COST: '4' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const deadline = Date.now() + 90_000;
      while (!output.includes('tenantkit listening') && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 100));
      const line = output.split('\n').find((l) => l.includes('tenantkit listening'));
      expect(line, output).toBeDefined();
      const url = (JSON.parse(line!) as { url: string }).url;
      expect((await fetch(`${url}/health`)).status).toBe(200);
      expect((await fetch(`${url}/docs/swagger-ui.css`)).status).toBe(200);
      const signup = await fetch(`${url}/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'built@example.com', password: 'a long built password' }),
      });
      expect(signup.status).toBe(201);
      expect(output).not.toContain('.env not found');
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 180_000);
});
