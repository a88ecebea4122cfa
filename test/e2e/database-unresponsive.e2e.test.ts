import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { testSessions } from '../support/sessions';
import { expectErrorResponse } from '../support/http-assertions';
import { DATABASE_TIME_LIMITS } from '../../adapters/postgres/orm';

/**
 * A database that accepts connections but never answers (frozen, wedged behind a pooler, a dead
 * network path that still completes handshakes): requests answer 503 SERVICE_UNAVAILABLE with
 * Retry-After within the stated bound, never a 500 and never a hang, and /health says the
 * database is down. When it answers again, so does the API.
 */
const postgres = await requirePostgres();
/** The stated bound (docs/reliability.md): the client-side query time-out plus 1.5 s of slack. */
const BOUND_MS = DATABASE_TIME_LIMITS.queryMs + 1_500;

describe.skipIf(!postgres)('a database that accepts connections and never answers', () => {
  let db: TestDatabase;
  let proxy: TcpProxy;
  let app: TestApp;
  let cookie: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    cookie = `session_id=${(await testSessions(db.database).loginAs('member', await testSessions(db.database).newOrganization())).token}`;
    const url = new URL(db.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(proxy.port);
    app = await startTestApp({ APP_DATABASE_URL: url.toString(), APP_LOG_LEVEL: 'warn' });
  });
  afterAll(async () => {
    proxy.mode = 'pass';
    await app?.close();
    await proxy?.close();
    await db?.drop();
  });

  it('answers 503 with Retry-After within the bound, then recovers', { timeout: 60_000 }, async () => {
    expect((await app.request('/projects', { headers: { Cookie: cookie } })).status).toBe(200);
    proxy.mode = 'blackhole';
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        app.request(i % 2 ? '/projects' : '/users/me', { headers: { Cookie: cookie }, signal: AbortSignal.timeout(30_000) }),
      ),
    );
    const elapsed = performance.now() - started;
    for (const answer of answers) {
      const body = await expectErrorResponse(answer, 503, 'SERVICE_UNAVAILABLE');
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(body.message).not.toMatch(/timeout expired/);
    }
    expect(elapsed).toBeLessThan(BOUND_MS);
    const health = await app.request('/health');
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ checks: { database: 'down' } });
    // 503s are expected while the database is down: warn lines without a stack, never error.
    expect(app.logs().filter((line) => (line.level as number) >= 50)).toEqual([]);

    proxy.mode = 'pass';
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i += 1) {
      status = (await app.request('/projects', { headers: { Cookie: cookie } })).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
  });
});
