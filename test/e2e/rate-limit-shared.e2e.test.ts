import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { requireRedis, TEST_REDIS_URL } from '../support/postgres';

const redisUp = await requireRedis();

/** Two instances behind a load balancer, one Redis: one limit across instances, not one per instance. */
describe.skipIf(!redisUp)('rate limits shared through Redis', () => {
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    first = await startTestApp({ APP_RATE_LIMIT_STORAGE_URI: `async+${TEST_REDIS_URL}` });
    second = await startTestApp({ APP_DATABASE_URL: first.db!.url, APP_RATE_LIMIT_STORAGE_URI: TEST_REDIS_URL });
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
});
