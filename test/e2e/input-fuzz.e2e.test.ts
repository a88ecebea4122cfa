import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestApp, type TestApp } from '../support/app';
import { testSessions } from '../support/sessions';

/**
 * Input handling, as a property: whatever a client sends to a route that reads input, the answer
 * is never a 5xx and every error is a well-formed ErrorResponse. Bodies are a VALID body with one
 * field replaced by a hostile value, so the validation of each field, and the storage behind it,
 * is actually reached (fully random documents almost never get past the first field). Each
 * request comes from its own client IP so rate limits do not hide the validation path.
 */
const RUNS = Number(process.env.PROPERTY_RUNS ?? 100);

let unique = 0;
const freshEmail = () => `fuzz${(unique += 1)}@example.com`;

type Route = { method: string; path: string; body: () => Record<string, unknown> };

const ROUTES: Route[] = [
  { method: 'POST', path: '/auth/signup', body: () => ({ email: freshEmail(), password: 'password123', first_name: 'A', last_name: 'B' }) },
  { method: 'POST', path: '/auth/signup-org', body: () => ({ email: freshEmail(), password: 'password123', organization_name: 'Org', first_name: 'A' }) },
  { method: 'POST', path: '/auth/login', body: () => ({ email: freshEmail(), password: 'password123' }) },
  { method: 'POST', path: '/auth/verify-email', body: () => ({ token: 'a'.repeat(43) }) },
  { method: 'POST', path: '/auth/resend-verification', body: () => ({ email: freshEmail() }) },
  { method: 'POST', path: '/password/forgot', body: () => ({ email: freshEmail() }) },
  { method: 'POST', path: '/password/reset', body: () => ({ token: 'a'.repeat(43), new_password: 'password123' }) },
  { method: 'POST', path: '/password/update', body: () => ({ current_password: 'password123', new_password: 'password456' }) },
  { method: 'POST', path: '/projects', body: () => ({ name: 'Project', description: 'About it' }) },
  { method: 'PUT', path: '/projects/1', body: () => ({ name: 'Project', description: 'About it' }) },
  { method: 'POST', path: '/invitations', body: () => ({ email: freshEmail(), role: 'member' }) },
  { method: 'POST', path: '/invitations/accept', body: () => ({ token: 'a'.repeat(43), password: 'password123', first_name: 'A', last_name: 'B' }) },
  { method: 'PUT', path: '/members/1', body: () => ({ role: 'member' }) },
];

/** Values storage chokes on if validation lets them through, and plain wrong types. */
const hostile = fc.oneof(
  fc.constantFrom('a\u0000b', '\u0000', '\ud800', 'x'.repeat(10_001), '   ', '', '😀'.repeat(201), 'Robert\'); drop table project;--'),
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.jsonValue(),
);

const clientIp = fc
  .tuple(fc.integer({ min: 1, max: 254 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 }))
  .map(([a, b, c]) => `10.${a}.${b}.${c}`);

async function expectHandled(response: Response): Promise<void> {
  expect(response.status).toBeLessThan(500);
  if (response.status >= 400) {
    const error = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(error).sort()).toEqual(['code', 'details', 'error_id', 'message']);
  } else {
    await response.arrayBuffer();
  }
}

describe('input handling (property)', () => {
  let app: TestApp;
  let cookie: string;
  beforeAll(async () => {
    app = await startTestApp({ APP_LOG_LEVEL: 'warn' });
    const sessions = testSessions(app.db!.database);
    const organization = await sessions.newOrganization();
    cookie = `session_id=${(await sessions.loginAs('org_admin', organization)).token}`;
  });
  afterAll(() => app?.close());

  const send = (route: Route, body: string, client: string, withSession: boolean) =>
    app.request(route.path, {
      method: route.method,
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': client, ...(withSession ? { Cookie: cookie } : {}) },
      body,
    });

  it('a valid body with any one field made hostile never gets a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.nat(), hostile, clientIp, async (route, pick, value, client) => {
        const body = route.body();
        const fields = [...Object.keys(body), 'unexpected_field'];
        body[fields[pick % fields.length]!] = value;
        await expectHandled(await send(route, JSON.stringify(body), client, true));
      }),
      { numRuns: RUNS * 6 },
    );
  });

  it('any document or raw text, with or without a session, never gets a 5xx', async () => {
    const anyBody = fc.oneof(fc.jsonValue().map((value) => JSON.stringify(value)), fc.string({ unit: 'binary', maxLength: 200 }));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), anyBody, fc.boolean(), clientIp, async (route, text, withSession, client) => {
        await expectHandled(await send(route, text, client, withSession));
      }),
      { numRuns: RUNS * 2 },
    );
  });

  it('any path segment and query on the project routes never gets a 5xx', async () => {
    const segment = fc.oneof(fc.integer().map(String), fc.string({ maxLength: 30 }), fc.constantFrom('0', '-1', '1.5', '1e3', '2147483648', '007'));
    await fc.assert(
      fc.asyncProperty(segment, fc.string({ maxLength: 40 }), fc.constantFrom('GET', 'PUT', 'DELETE'), async (id, query, method) => {
        const q = encodeURIComponent(query);
        await expectHandled(await app.request(`/projects?limit=${q}&cursor=${q}`, { headers: { Cookie: cookie } }));
        const response = await app.request(`/projects/${encodeURIComponent(id)}`, {
          method,
          headers: { Cookie: cookie, 'Content-Type': 'application/json' },
          ...(method === 'PUT' ? { body: '{"name":"x"}' } : {}),
        });
        await expectHandled(response);
      }),
      { numRuns: RUNS },
    );
  });
});
