import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, CookieJar } from '../../app/client/index';
import { startTestApp, type TestApp } from '../support/app';
import { testSessions } from '../support/sessions';
import { requireRedis, TEST_REDIS_URL } from '../support/postgres';

const redisUp = await requireRedis();

/** Two instances behind a load balancer, one Redis: one limit across instances, not one per instance. */
describe.skipIf(!redisUp)('rate limits shared through Redis', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ APP_RATE_LIMIT_STORAGE_URI: `async+${TEST_REDIS_URL}`, APP_API_KEY_RATE_LIMIT: '4' });
    second = await startTestApp({ APP_DATABASE_URL: first.db!.url, APP_RATE_LIMIT_STORAGE_URI: TEST_REDIS_URL, APP_API_KEY_RATE_LIMIT: '4' });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('holds one login limit across both instances', async () => {
    // Limits key IPv6 clients by /64, so the random part must be in the prefix: shared Redis keeps
    // earlier runs' counters for the whole window.
    const ip = `2001:db8:${randomInt(1, 0xffff).toString(16)}:${randomInt(1, 0xffff).toString(16)}::1`;
    const attempt = (app: TestApp) =>
      app.request('/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': ip },
        body: JSON.stringify({ email: `shared-${randomInt(1e9)}@example.com`, password: "whatever1" }),
      });
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await attempt(i % 2 === 0 ? first : second)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    expect((await attempt(first)).status).toBe(429);
  });

  it("holds one API key's limit across both instances", async () => {
    const sessions = testSessions(first.db!.database);
    const admin = await sessions.loginAs('org_admin', await sessions.newOrganization());
    const jar = new CookieJar();
    jar.set(first.config.sessionCookieName, admin.token);
    const created = await createApiClient(first.url, jar).POST('/api-keys', { body: { name: 'shared', role: 'readonly' } });
    const clients = [first, second].map((app) => createApiClient(app.url, { apiKey: created.data!.key }));

    const statuses = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await clients[i % 2]!.GET('/projects')).response.status);
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});
