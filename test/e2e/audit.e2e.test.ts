import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient, CookieJar, type ApiClient } from '../../app/client/index';
import { startTestApp, type TestApp } from '../support/app';
import { clientBrowser } from '../support/client-browser';
import { expectApiError } from '../support/http-assertions';
import { tokenFromEmail } from '../support/mailbox';
import { requirePostgres } from '../support/postgres';
import { testSessions, type TestSessions } from '../support/sessions';

/**
 * The audit log end to end: events written by real sign-ins and account changes, read back through
 * the generated client (filters, keyset pages, the NDJSON export, the sys_admin view), and the
 * roles that may not read it.
 */
const postgres = await requirePostgres();

const PASSWORD = 'correct horse battery';
const WRONG = 'Tr0ub4dor&3 wrong';
const USER_AGENT = 'AuditTest/1.0 (X11; Linux)';

interface Event {
  id: number;
  occurred_at: string;
  action: string;
  actor: { type: string; id: number | null; email?: string; name?: string };
  target: { type: string; id: string } | null;
  ip: string | null;
  user_agent: string | null;
  details: Record<string, unknown>;
}

describe.skipIf(!postgres)('audit log over HTTP', () => {
  let app: TestApp;
  let sessions: TestSessions;
  let adaId: number;
  let organizationId: number;
  let admin: ApiClient;
  let ip: string;

  const clientWith = (token: string) => {
    const jar = new CookieJar();
    jar.set(app.config.sessionCookieName, token);
    return createApiClient(app.url, jar);
  };
  const sql = <R = Record<string, unknown>>(text: string, params: unknown[] = []) => app.db!.database.select<R>(text, params);

  /** Every event of the organization, newest first, once the failed sign-ins written off the path have landed. */
  async function allEvents(api: ApiClient = admin): Promise<Event[]> {
    await app.server.container.get((await import('../../app/container/tokens')).TOKENS.FailedSignIns).flush();
    const result = await api.GET('/audit-events');
    expect(result.response.status).toBe(200);
    return result.data as Event[];
  }

  beforeAll(async () => {
    app = await startTestApp();
    sessions = testSessions(app.db!.database);
    const b = clientBrowser(app, { subnet: '198.18', userAgent: USER_AGENT });
    const signup = await b.api.POST('/auth/signup', { body: { email: 'ada@example.com', password: PASSWORD } });
    expect(signup.response.status).toBe(201);
    adaId = signup.data!.user_id;
    const token = await tokenFromEmail(app, 'ada@example.com', '/verify-email');
    expect((await b.api.POST('/auth/verify-email', { body: { token } })).response.status).toBe(200);
    // A failure, a sign-in, a sign-out and a sign-in again, all from one browser.
    expectApiError(await b.api.POST('/auth/login', { body: { email: 'ada@example.com', password: WRONG } }), 401, 'INVALID_CREDENTIALS');
    expectApiError(await b.api.POST('/auth/login', { body: { email: 'nobody@example.com', password: WRONG } }), 401, 'INVALID_CREDENTIALS');
    expect((await b.api.POST('/auth/login', { body: { email: 'ada@example.com', password: PASSWORD } })).response.status).toBe(200);
    expect((await b.api.POST('/auth/logout')).response.status).toBe(204);
    expect((await b.api.POST('/auth/login', { body: { email: 'ada@example.com', password: PASSWORD } })).response.status).toBe(200);
    admin = b.api;
    [{ organization_id: organizationId } = { organization_id: 0 }] = await sql<{ organization_id: number }>('select organization_id from app_user where id = $1', [adaId]);
    ip = ((await admin.GET('/sessions')).data as Array<{ ip: string | null }>)[0]!.ip!;
  });

  afterAll(() => app?.close());

  it('records sign-ins and sign-outs with who, from where and how; never the password; nothing for an unknown email', async () => {
    const events = await allEvents();
    expect(events.map((e) => e.action)).toEqual(['login.succeeded', 'logout', 'login.succeeded', 'login.failed']);
    const [latest, logout, , failed] = events;
    expect(latest).toEqual({
      id: expect.any(Number),
      occurred_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      action: 'login.succeeded',
      actor: { type: 'user', id: adaId, email: 'ada@example.com' },
      target: { type: 'session', id: expect.stringMatching(/^\d+$/) },
      ip,
      user_agent: USER_AGENT,
      details: { method: 'password' },
    });
    expect(logout).toMatchObject({ actor: { id: adaId }, ip, user_agent: USER_AGENT, target: { type: 'session' } });
    expect(failed).toMatchObject({ actor: { type: 'user', id: adaId }, target: null, ip, details: { method: 'password', reason: 'invalid_credentials' } });
    expect(JSON.stringify(events)).not.toContain(WRONG);
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
    expect(JSON.stringify(events)).not.toContain('nobody@example.com');
  });

  it('filters by action, actor and time, and refuses a bad filter with a VALIDATION_ERROR naming it', async () => {
    const events = await allEvents();
    const list = async (query: Record<string, string | number>) => {
      const result = await admin.GET('/audit-events', { params: { query } });
      expect(result.response.status).toBe(200);
      return (result.data as Event[]).map((e) => e.id);
    };
    expect(await list({ action: 'login.failed' })).toEqual(events.filter((e) => e.action === 'login.failed').map((e) => e.id));
    expect(await list({ actor_id: adaId })).toEqual(events.map((e) => e.id));
    expect(await list({ actor_id: adaId + 1000 })).toEqual([]);
    expect(await list({ actor_type: 'user', actor_id: adaId })).toEqual(events.map((e) => e.id));
    expect(await list({ actor_type: 'api_key' })).toEqual([]);
    const logoutAt = events[1]!.occurred_at;
    expect(await list({ since: logoutAt })).toEqual(events.filter((e) => e.occurred_at >= logoutAt).map((e) => e.id));
    expect(await list({ until: logoutAt })).toEqual(events.filter((e) => e.occurred_at < logoutAt).map((e) => e.id));

    const bad = (query: Record<string, string>) => admin.GET('/audit-events', { params: { query: query as never } });
    expect(expectApiError(await bad({ action: 'member.exploded' }), 422, 'VALIDATION_ERROR')).toHaveProperty(['query.action']);
    expect(expectApiError(await bad({ actor_id: 'ada' }), 422, 'VALIDATION_ERROR')).toHaveProperty(['query.actor_id']);
    expect(expectApiError(await bad({ actor_type: 'robot' }), 422, 'VALIDATION_ERROR')).toHaveProperty(['query.actor_type']);
    expect(expectApiError(await bad({ since: 'yesterday' }), 422, 'VALIDATION_ERROR')).toHaveProperty(['query.since']);
    expect(expectApiError(await bad({ since: '2026-11-21T10:00:00Z', until: '2026-11-21T10:00:00Z' }), 422, 'VALIDATION_ERROR')).toEqual({
      'query.until': 'Must be later than since',
    });
  });

  it('pages newest first with limit and the Link header, which keeps the filters', async () => {
    // Events of the account, plus enough to page through, written as the application writes them.
    await sql(
      `insert into audit_event (organization_id, occurred_at, action, actor_type, actor_id, details)
       select $1, now() - (n || ' seconds')::interval, 'session.revoked', 'user', $2, jsonb_build_object('n', n) from generate_series(1, 7) as n`,
      [organizationId, adaId],
    );
    const everything = (await allEvents()).filter((e) => e.action === 'session.revoked').map((e) => e.id);
    expect(everything).toHaveLength(7);
    const walked: number[] = [];
    let query: Record<string, string> = { limit: '3', action: 'session.revoked' };
    for (let page = 0; page < 10; page += 1) {
      const result = await admin.GET('/audit-events', { params: { query: query as never } });
      walked.push(...(result.data as Event[]).map((e) => e.id));
      const link = result.response.headers.get('link');
      if (!link) break;
      const next = new URL(/^<([^>]+)>; rel="next"$/.exec(link)![1]!);
      expect(next.pathname).toBe('/audit-events');
      expect(next.searchParams.get('action')).toBe('session.revoked');
      query = Object.fromEntries(next.searchParams);
    }
    expect(walked).toEqual(everything);
    expect([...walked].sort((a, b) => b - a)).toEqual(walked);
  });

  it('exports a range as NDJSON, oldest first, whole, in batches', async () => {
    const total = 2_345;
    await sql(
      `insert into audit_event (organization_id, occurred_at, action, actor_type, actor_id, ip, details)
       select $1, timestamptz '2025-01-01T00:00:00Z' + (n || ' minutes')::interval, 'password.updated', 'user', $2, '192.0.2.1', jsonb_build_object('n', n)
         from generate_series(1, $3::int) as n`,
      [organizationId, adaId, total],
    );
    const result = await admin.GET('/audit-events/export', {
      params: { query: { since: '2025-01-01T00:00:00Z', until: '2025-12-31T00:00:00Z' } },
      parseAs: 'text',
    });
    expect(result.response.status).toBe(200);
    expect(result.response.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(result.response.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-events-2025-01-01T00-00-00-000Z-2025-12-31T00-00-00-000Z\.ndjson"$/);
    const text = result.data as string;
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line) as Event);
    expect(lines).toHaveLength(total);
    expect(lines.map((e) => e.details.n)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(lines[0]).toMatchObject({ action: 'password.updated', actor: { type: 'user', id: adaId }, ip: '192.0.2.1' });
    // The events of today are outside the range.
    expect(lines.every((e) => e.occurred_at < '2025-12-31')).toBe(true);
  });

  it('refuses an export range over 366 days, or reversed', async () => {
    const exportOf = (query: Record<string, string>) => admin.GET('/audit-events/export', { params: { query }, parseAs: 'text' });
    const tooLong = await exportOf({ since: '2025-01-01T00:00:00Z', until: '2026-01-02T00:00:01Z' });
    expect(tooLong.response.status).toBe(422);
    expect(tooLong.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { 'query.until': 'Must be at most 366 days after since' } });
    const reversed = await exportOf({ since: '2025-02-01T00:00:00Z', until: '2025-01-01T00:00:00Z' });
    expect(reversed.response.status).toBe(422);
    const empty = await exportOf({ since: '2024-01-01T00:00:00Z', until: '2024-06-01T00:00:00Z' });
    expect(empty.response.status).toBe(200);
    // No events: an empty body (no lines).
    expect(empty.data ?? '').toBe('');
  });

  it('allows 60 exports an hour per caller, then answers 429 with Retry-After', async () => {
    const collector = clientWith((await sessions.loginAs('org_admin', organizationId)).token);
    const range = { since: '2024-01-01T00:00:00Z', until: '2024-01-02T00:00:00Z' };
    for (let i = 0; i < 60; i += 1) expect((await collector.GET('/audit-events/export', { params: { query: range }, parseAs: 'text' })).response.status).toBe(200);
    const limited = await collector.GET('/audit-events/export', { params: { query: range }, parseAs: 'text' });
    expect(limited.response.status).toBe(429);
    expect(Number(limited.response.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another caller has a budget of their own.
    expect((await admin.GET('/audit-events/export', { params: { query: range }, parseAs: 'text' })).response.status).toBe(200);
  });

  it("gives a sys_admin any organization's log, and 404 for one that does not exist", async () => {
    const root = clientWith((await sessions.loginAs('sys_admin', await sessions.newOrganization('System'))).token);
    const theirs = await root.GET('/organizations/{organization_id}/audit-events', { params: { path: { organization_id: organizationId }, query: { limit: 1000 } } });
    expect(theirs.response.status).toBe(200);
    expect((theirs.data as Event[]).map((e) => e.id)).toEqual((await allEvents()).map((e) => e.id).slice(0, 1000));
    const filtered = await root.GET('/organizations/{organization_id}/audit-events', { params: { path: { organization_id: organizationId }, query: { action: 'logout' } } });
    expect((filtered.data as Event[]).map((e) => e.action)).toEqual(['logout']);
    expectApiError(await root.GET('/organizations/{organization_id}/audit-events', { params: { path: { organization_id: 987_654 } } }), 404, 'RESOURCE_NOT_FOUND');
  });

  it('is refused below org_admin, and the sys_admin view below sys_admin', async () => {
    const member = clientWith((await sessions.loginAs('member', organizationId)).token);
    expectApiError(await member.GET('/audit-events'), 403, 'ACCESS_DENIED');
    const memberExport = await member.GET('/audit-events/export', { parseAs: 'text' });
    expect(memberExport.response.status).toBe(403);
    expectApiError(await admin.GET('/organizations/{organization_id}/audit-events', { params: { path: { organization_id: organizationId } } }), 403, 'ACCESS_DENIED');
    expectApiError(await createApiClient(app.url, new CookieJar()).GET('/audit-events'), 401, 'UNAUTHORIZED');
  });

  it('no route changes or deletes an event', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const res = await app.request('/audit-events', { method, headers: { origin: app.config.baseWebUrl } });
      expect(res.status, method).toBe(405);
    }
    const [first] = await allEvents();
    const res = await app.request(`/audit-events/${first!.id}`, { method: 'DELETE' });
    expect(res.status).toBe(404);
  });

  it('on PostgreSQL, an event the database refuses takes its change down with it, and a refused change writes no event', async () => {
    const b = clientBrowser(app, { subnet: '198.18', userAgent: USER_AGENT });
    expect((await b.api.POST('/auth/login', { body: { email: 'ada@example.com', password: PASSWORD } })).response.status).toBe(200);
    const before = (await allEvents()).length;
    // The database now refuses any logout event: the logout must fail whole, its session alive.
    await sql(`alter table audit_event add constraint refuse_logout_events check (action <> 'logout') not valid`);
    try {
      expect((await b.api.POST('/auth/logout')).response.status).toBe(500);
      expect((await b.api.GET('/users/me')).response.status).toBe(200);
    } finally {
      await sql('alter table audit_event drop constraint refuse_logout_events');
    }
    // A password change refused (wrong current password) changes nothing and records nothing.
    expectApiError(await b.api.POST('/password/update', { body: { current_password: WRONG, new_password: 'another password' } }), 400, 'INVALID_CURRENT_PASSWORD');
    const after = await allEvents();
    expect(after.length).toBe(before);
    expect(after[0]!.action).toBe('login.succeeded');
    expect((await b.api.POST('/auth/logout')).response.status).toBe(204);
    expect((await allEvents())[0]!.action).toBe('logout');
  });
});
