import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { expectErrorResponse } from '../support/http-assertions';
import { testSessions, type TestSession } from '../support/sessions';

const CRON_SECRET = 'cron-secret-for-the-security-suite-0123';

/** Findings of an outside security review, held shut over HTTP. */
describe('security review regressions over HTTP', () => {
  let app: TestApp;
  let sysAdmin: TestSession;
  let tenantId: number;
  let client = 0;
  const nextIp = () => `198.18.${Math.floor((client += 1) / 250)}.${client % 250}`;

  beforeAll(async () => {
    app = await startTestApp({ APP_CRON_SECRET: CRON_SECRET });
    const sessions = testSessions(app.db!.database);
    sysAdmin = await sessions.loginAs('sys_admin', await sessions.newOrganization('System'));
    tenantId = await sessions.newOrganization('Tenant');
  });
  afterAll(() => app?.close());

  const suspend = (headers: Record<string, string>) =>
    app.request(`/organizations/${tenantId}/suspend`, {
      method: 'POST',
      headers: { Cookie: `session_id=${sysAdmin.token}`, 'X-Forwarded-For': nextIp(), ...headers },
    });

  describe('cross-site requests (CSRF)', () => {
    it('refuses a state-changing request from another origin, text/plain body and all', async () => {
      const res = await suspend({ Origin: 'http://evil.example', 'Content-Type': 'text/plain' });
      const error = await expectErrorResponse(res, 403, 'ACCESS_DENIED');
      expect(error.details).toEqual({ reason: 'cross_site_request', origin: 'http://evil.example' });
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      const organization = await app.db!.database.db.selectFrom('organization').select('status').where('id', '=', tenantId).executeTakeFirst();
      expect(organization).toEqual({ status: 'active' });
    });

    it('refuses an opaque origin and a cross-site fetch that sends no Origin', async () => {
      await expectErrorResponse(await suspend({ Origin: 'null' }), 403, 'ACCESS_DENIED');
      await expectErrorResponse(await suspend({ 'Sec-Fetch-Site': 'cross-site' }), 403, 'ACCESS_DENIED');
    });

    it('accepts the frontend origin, the API origin, and callers that are no browser (no Origin)', async () => {
      expect((await suspend({ Origin: 'http://localhost:5173', 'Sec-Fetch-Site': 'same-site' })).status).toBe(200);
      expect((await suspend({ Origin: new URL(app.config.baseApiUrl).origin })).status).toBe(200);
      expect((await suspend({})).status).toBe(200);
    });

    it('leaves reads alone, and server-to-server routes (cron, webhooks) keep working whatever they send', async () => {
      const read = await app.request('/users/me', { headers: { Cookie: `session_id=${sysAdmin.token}`, Origin: 'http://evil.example' } });
      expect(read.status).toBe(200);
      const cron = await app.request('/cron', { method: 'POST', headers: { Authorization: `Bearer ${CRON_SECRET}`, Origin: 'http://evil.example' } });
      expect(cron.status).toBe(200);
      // Billing is not configured here: 503 proves the request got past the cross-site check.
      const webhook = await app.request('/webhooks/stripe', { method: 'POST', headers: { Origin: 'http://evil.example' }, body: '{}' });
      await expectErrorResponse(webhook, 503, 'SERVICE_UNAVAILABLE');
    });
  });

  it('counts every spelling of one client address against one login budget, and IPv6 per /64', async () => {
    const login = (forwardedFor: string) =>
      app.request('/auth/login', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
        body: JSON.stringify({ email: 'nobody@example.com', password: 'password-123' }),
      });
    const ipv6 = ['2001:db8:77::1', '2001:0DB8:0077:0000:0000:0000:0000:0001', '2001:db8:77:0:ffff::9', '2001:DB8:77::abcd', '2001:db8:77::1'];
    expect((await Promise.all(ipv6.map(async (ip) => (await login(ip)).status)))).toEqual([401, 401, 401, 401, 401]);
    await expectErrorResponse(await login('2001:db8:77:0:1234::1'), 429, 'RATE_LIMITED');
    const ipv4 = ['198.51.100.77', '::ffff:198.51.100.77', '::FFFF:c633:644d', '198.51.100.77', '::ffff:198.51.100.77'];
    for (const ip of ipv4) expect((await login(ip)).status).toBe(401);
    await expectErrorResponse(await login('198.51.100.77'), 429, 'RATE_LIMITED');
  });

  it('limits /password/update per user, whatever address the session is used from', async () => {
    const sessions = testSessions(app.db!.database);
    const member = await sessions.loginAs('member', await sessions.newOrganization());
    const attempt = () =>
      app.request('/password/update', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: `session_id=${member.token}`, 'X-Forwarded-For': nextIp() },
        body: JSON.stringify({ current_password: 'guess-guess', new_password: 'new-password-1' }),
      });
    for (let i = 0; i < 5; i += 1) await expectErrorResponse(await attempt(), 400, 'INVALID_CURRENT_PASSWORD');
    const limited = await attempt();
    await expectErrorResponse(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('writes the client IP and the user id into the access log', async () => {
    const sessions = testSessions(app.db!.database);
    const member = await sessions.loginAs('member', await sessions.newOrganization());
    await app.request('/users/me', { headers: { Cookie: `session_id=${sysAdmin.token}`, 'X-Forwarded-For': '::ffff:203.0.113.9', 'X-Request-Id': 'access-log-1' } });
    await app.request('/ping', { headers: { 'X-Forwarded-For': '203.0.113.10', 'X-Request-Id': 'access-log-2' } });
    // Refused by the role check: still the logged-in user's id, not null.
    await app.request('/members', { headers: { Cookie: `session_id=${member.token}`, 'X-Request-Id': 'access-log-3' } });
    const lines = app.logs().filter((line) => line.msg === 'request');
    expect(lines.find((line) => line.request_id === 'access-log-3')).toMatchObject({ user_id: member.userId, status: 403 });
    expect(lines.find((line) => line.request_id === 'access-log-1')).toMatchObject({ ip: '203.0.113.9', user_id: sysAdmin.userId, status: 200 });
    expect(lines.find((line) => line.request_id === 'access-log-2')).toMatchObject({ ip: '203.0.113.10', user_id: null });
  });
});
