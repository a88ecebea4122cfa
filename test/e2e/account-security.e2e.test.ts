import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientBrowser, type ClientBrowser } from '../support/client-browser';
import { startTestApp, type TestApp } from '../support/app';
import { expectApiError, expectErrorResponse } from '../support/http-assertions';
import { tokenFromEmail } from '../support/mailbox';
import { OtpauthTotpVerifier } from '../../adapters/crypto/otpauth-totp-verifier';

/** Account security end to end (sessions, TOTP, require_mfa, suspension, throttling), through the generated client. */
const PASSWORD = 'correct horse battery';
const totp = new OtpauthTotpVerifier();
/** The code an authenticator shows now, or `offset` steps away (±1 is accepted). */
const codeFor = (secret: string, offset = 0) => totp.codeAt(secret, totp.stepAt(new Date()) + offset);

/** One browser: its own cookies, its own client IP (so per-IP limits never couple tests), a User-Agent. */
const browser = (app: TestApp, userAgent?: string) => clientBrowser(app, { subnet: '198.19', userAgent });
type Browser = ClientBrowser;

describe('account security over HTTP', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  /** Signs up through the API, verifies through the emailed link; returns the user id. */
  async function signUp(email: string, organizationName?: string): Promise<number> {
    const b = browser(app);
    const signup = organizationName
      ? await b.api.POST('/auth/signup-org', { body: { email, password: PASSWORD, organization_name: organizationName } })
      : await b.api.POST('/auth/signup', { body: { email, password: PASSWORD } });
    expect(signup.response.status).toBe(201);
    const token = await tokenFromEmail(app, email, '/verify-email');
    expect((await b.api.POST('/auth/verify-email', { body: { token } })).response.status).toBe(200);
    return signup.data!.user_id;
  }

  async function loggedIn(email: string, userAgent?: string): Promise<Browser> {
    const b = browser(app, userAgent);
    const login = await b.api.POST('/auth/login', { body: { email, password: PASSWORD } });
    expect(login.response.status).toBe(200);
    expect(login.data).toEqual({ user_id: expect.any(Number) });
    return b;
  }

  async function enableTotp(b: Browser): Promise<{ secret: string; recoveryCodes: string[] }> {
    const setup = await b.api.POST('/auth/mfa/totp/setup');
    expect(setup.response.status).toBe(200);
    const { secret, otpauth_url } = setup.data!;
    expect(otpauth_url).toMatch(new RegExp(`^otpauth://totp/tenantkit:.+\\?.*secret=${secret}`));
    const confirm = await b.api.POST('/auth/mfa/totp/confirm', { body: { code: codeFor(secret) } });
    expect(confirm.response.status).toBe(200);
    return { secret, recoveryCodes: confirm.data!.recovery_codes };
  }

  /** Logs in to the challenge: 200 {mfa_required: true}, a challenge cookie, no session cookie. */
  async function challenged(email: string): Promise<Browser> {
    const b = browser(app);
    const login = await b.api.POST('/auth/login', { body: { email, password: PASSWORD } });
    expect(login.response.status).toBe(200);
    expect(login.data).toEqual({ mfa_required: true });
    expect(b.jar.get(app.config.sessionCookieName)).toBeUndefined();
    const challenge = b.setCookies().find((c) => c.startsWith('mfa_challenge='));
    expect(challenge).toMatch(/^mfa_challenge=[\w-]{43}; Path=\/; Max-Age=300; HttpOnly; SameSite=Lax$/);
    return b;
  }

  it('the whole MFA journey: setup, confirm, logout, login, verify by code, by recovery code, and no reuse', async () => {
    await signUp('mfa@example.com');
    const other = await loggedIn('mfa@example.com');
    const b = await loggedIn('mfa@example.com');
    const { secret, recoveryCodes } = await enableTotp(b);
    expect(recoveryCodes).toHaveLength(10);
    // Confirming ends every other session, keeps this one.
    expectApiError(await other.api.GET('/users/me'), 401, 'UNAUTHORIZED');
    expect((await b.api.GET('/users/me')).response.status).toBe(200);
    expect((await b.api.POST('/auth/logout')).response.status).toBe(204);

    const c = await challenged('mfa@example.com');
    expectApiError(await c.api.GET('/users/me'), 401, 'UNAUTHORIZED');
    expectApiError(await c.api.POST('/auth/mfa/verify', { body: { code: codeFor(secret, -2) } }), 401, 'INVALID_MFA_CODE');
    expectApiError(await c.api.POST('/auth/mfa/verify', { body: { code: '12345' } }), 401, 'INVALID_MFA_CODE');
    expectApiError(await c.api.POST('/auth/mfa/verify', { body: {} }), 422, 'VALIDATION_ERROR');
    // The confirming code's step is used: the next step's code is the fresh one.
    const fresh = codeFor(secret, 1);
    const verified = await c.api.POST('/auth/mfa/verify', { body: { code: fresh } });
    expect(verified.response.status).toBe(200);
    expect(verified.data).toEqual({ user_id: expect.any(Number) });
    expect(c.jar.get('mfa_challenge')).toBeUndefined();
    expect(c.jar.get(app.config.sessionCookieName)).toMatch(/^[\w-]{43}$/);
    expect((await c.api.GET('/users/me')).response.status).toBe(200);
    expect((await c.api.POST('/auth/logout')).response.status).toBe(204);

    // The same code again, on a new challenge: refused (replay).
    const replay = await challenged('mfa@example.com');
    expectApiError(await replay.api.POST('/auth/mfa/verify', { body: { code: fresh } }), 401, 'INVALID_MFA_CODE');

    const r = await challenged('mfa@example.com');
    const withRecovery = await r.api.POST('/auth/mfa/verify', { body: { recovery_code: recoveryCodes[0]!.toUpperCase() } });
    expect(withRecovery.response.status).toBe(200);
    expect((await r.api.GET('/users/me')).response.status).toBe(200);

    const again = await challenged('mfa@example.com');
    expectApiError(await again.api.POST('/auth/mfa/verify', { body: { recovery_code: recoveryCodes[0]! } }), 401, 'INVALID_MFA_CODE');
    expect((await again.api.POST('/auth/mfa/verify', { body: { recovery_code: recoveryCodes[1]! } })).response.status).toBe(200);

    // Turning MFA off needs the password; afterwards login gives a session straight away.
    expectApiError(await again.api.POST('/auth/mfa/totp/disable', { body: { password: 'wrong password' } }), 400, 'INVALID_CURRENT_PASSWORD');
    const disabled = await again.api.POST('/auth/mfa/totp/disable', { body: { password: PASSWORD } });
    expect(disabled.response.status).toBe(200);
    expect(disabled.data).toEqual({ success: true });
    await loggedIn('mfa@example.com');
  });

  it('voids a challenge after five wrong codes, and refuses a missing or stale challenge cookie', async () => {
    await signUp('tries@example.com');
    const { secret } = await enableTotp(await loggedIn('tries@example.com'));
    const c = await challenged('tries@example.com');
    const wrong = ['000000', '111111'].find((code) => ![-1, 0, 1].some((o) => codeFor(secret, o) === code))!;
    for (let i = 0; i < 5; i += 1) expectApiError(await c.api.POST('/auth/mfa/verify', { body: { code: wrong } }), 401, 'INVALID_MFA_CODE');
    expectApiError(await c.api.POST('/auth/mfa/verify', { body: { code: codeFor(secret, 1) } }), 401, 'UNAUTHORIZED');
    expectApiError(await browser(app).api.POST('/auth/mfa/verify', { body: { code: codeFor(secret, 1) } }), 401, 'UNAUTHORIZED');
  });

  it('bounds second-factor guesses per account across challenges and addresses: the 11th is 429, and no new challenge', async () => {
    await signUp('guessed@example.com');
    const { secret } = await enableTotp(await loggedIn('guessed@example.com'));
    const wrong = ['000000', '111111', '222222'].find((code) => ![-1, 0, 1, 2].some((o) => codeFor(secret, o) === code))!;
    // A stolen password typed from four addresses: four challenges, 20 tries by the challenges' count.
    const challenges = [];
    for (let i = 0; i < 4; i += 1) challenges.push(await challenged('guessed@example.com'));
    for (const c of challenges.slice(0, 2)) {
      for (let i = 0; i < 5; i += 1) expectApiError(await c.api.POST('/auth/mfa/verify', { body: { code: wrong } }), 401, 'INVALID_MFA_CODE');
    }
    const eleventh = await challenges[2]!.api.POST('/auth/mfa/verify', { body: { code: wrong } });
    expectApiError(eleventh, 429, 'RATE_LIMITED');
    const retryAfter = Number(eleventh.response.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expectApiError(await challenges[3]!.api.POST('/auth/mfa/verify', { body: { code: codeFor(secret, 1) } }), 429, 'RATE_LIMITED');
    const again = browser(app);
    expectApiError(await again.api.POST('/auth/login', { body: { email: 'guessed@example.com', password: PASSWORD } }), 429, 'RATE_LIMITED');
    expect(again.jar.get('mfa_challenge')).toBeUndefined();
  });

  it('limits turning MFA off per user whatever the address, and counts its wrong passwords as failed logins', async () => {
    await signUp('stolen-session@example.com');
    const b = await loggedIn('stolen-session@example.com');
    await enableTotp(b);
    const cookie = `${app.config.sessionCookieName}=${b.jar.get(app.config.sessionCookieName)}`;
    let address = 0;
    const disable = (password: string) =>
      app.request('/auth/mfa/totp/disable', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: cookie, 'X-Forwarded-For': `198.18.200.${(address += 1)}` },
        body: JSON.stringify({ password }),
      });
    for (let i = 0; i < 5; i += 1) await expectErrorResponse(await disable(`guess ${i}`), 400, 'INVALID_CURRENT_PASSWORD');
    const limited = await disable(PASSWORD);
    await expectErrorResponse(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers.get('Retry-After'))).toBeGreaterThan(0);
    // Five wrong passwords there and five at login fill the account's login throttle.
    for (let i = 0; i < 5; i += 1) {
      expectApiError(await browser(app).api.POST('/auth/login', { body: { email: 'stolen-session@example.com', password: `guess ${i}` } }), 401, 'INVALID_CREDENTIALS');
    }
    expectApiError(await browser(app).api.POST('/auth/login', { body: { email: 'stolen-session@example.com', password: PASSWORD } }), 429, 'RATE_LIMITED');
  });

  it('lists only invitations that can still be accepted: not those of a removed inviter', async () => {
    await signUp('founder@example.com', 'Vouching Org');
    const founder = await loggedIn('founder@example.com');
    expect((await founder.api.POST('/invitations', { body: { email: 'deputy@example.com', role: 'org_admin' } })).response.status).toBe(201);
    const deputyToken = await tokenFromEmail(app, 'deputy@example.com', '/invite/accept');
    const deputyId = (await browser(app).api.POST('/invitations/accept', { body: { token: deputyToken, password: PASSWORD } })).data!.user_id;
    const deputy = await loggedIn('deputy@example.com');
    const theirs = await deputy.api.POST('/invitations', { body: { email: 'protege@example.com', role: 'member' } });
    const mine = await founder.api.POST('/invitations', { body: { email: 'mine@example.com', role: 'member' } });
    const listed = async () => (await founder.api.GET('/invitations')).data!.map((i) => i.id);
    expect(await listed()).toEqual([theirs.data!.id, mine.data!.id]);

    expect((await founder.api.DELETE('/members/{user_id}', { params: { path: { user_id: deputyId } } })).response.status).toBe(204);
    expect(await listed()).toEqual([mine.data!.id]);
    // What is not listed is what accepting refuses.
    const token = await tokenFromEmail(app, 'protege@example.com', '/invite/accept');
    expectApiError(await browser(app).api.POST('/invitations/accept', { body: { token, password: PASSWORD } }), 400, 'INVALID_TOKEN');
  });

  it('require_mfa holds members without MFA to their account, sessions and MFA setup', async () => {
    await signUp('boss@example.com', 'Strict Org');
    const boss = await loggedIn('boss@example.com');
    expect((await boss.api.GET('/settings/organization')).data).toEqual({ overage_enabled: false, require_mfa: false });
    expectApiError(await boss.api.PUT('/settings/organization', { body: { require_mfa: 'yes' } as never }), 422, 'VALIDATION_ERROR');
    expectApiError(await boss.api.PUT('/settings/organization', { body: { unknown: true } as never }), 422, 'VALIDATION_ERROR');
    const turnedOn = await boss.api.PUT('/settings/organization', { body: { require_mfa: true } });
    expect(turnedOn.data).toEqual({ overage_enabled: false, require_mfa: true });

    expectApiError(await boss.api.GET('/projects'), 403, 'MFA_REQUIRED');
    expectApiError(await boss.api.GET('/settings/organization'), 403, 'MFA_REQUIRED');
    expect((await boss.api.GET('/users/me')).response.status).toBe(200);
    expect((await boss.api.GET('/sessions')).response.status).toBe(200);
    await enableTotp(boss);
    expect((await boss.api.GET('/projects')).response.status).toBe(200);
    expect((await boss.api.PUT('/settings/organization', { body: { require_mfa: false } })).data).toEqual({ overage_enabled: false, require_mfa: false });
  });

  it('lists live sessions newest first with agent and IP, ends one, ends the others, never another user’s', async () => {
    await signUp('many@example.com');
    await signUp('stranger@example.com');
    const first = await loggedIn('many@example.com', 'Agent/One');
    const second = await loggedIn('many@example.com', `Agent/Two ${'x'.repeat(400)}`);
    const stranger = await loggedIn('stranger@example.com');

    const listed = await second.api.GET('/sessions');
    expect(listed.response.status).toBe(200);
    const sessions = listed.data!;
    expect(sessions).toHaveLength(2);
    expect(sessions.map((s) => s.current)).toEqual([true, false]);
    expect(Array.from(sessions[0]!.user_agent!)).toHaveLength(255);
    expect(sessions[1]).toMatchObject({ user_agent: 'Agent/One', ip: expect.stringMatching(/^198\.19\./) });
    expect(Object.keys(sessions[0]!).sort()).toEqual(['created_at', 'current', 'expires_at', 'id', 'ip', 'last_seen_at', 'user_agent']);
    const strangerId = (await stranger.api.GET('/sessions')).data![0]!.id;

    expectApiError(await second.api.DELETE('/sessions/{session_id}', { params: { path: { session_id: strangerId } } }), 404, 'RESOURCE_NOT_FOUND');
    expect((await stranger.api.GET('/users/me')).response.status).toBe(200);
    const ended = await second.api.DELETE('/sessions/{session_id}', { params: { path: { session_id: sessions[1]!.id } } });
    expect(ended.response.status).toBe(204);
    expectApiError(await first.api.GET('/users/me'), 401, 'UNAUTHORIZED');

    const third = await loggedIn('many@example.com');
    await loggedIn('many@example.com');
    const others = await third.api.POST('/sessions/revoke-others');
    expect(others.data).toEqual({ revoked: 2 });
    expectApiError(await second.api.GET('/users/me'), 401, 'UNAUTHORIZED');
    // Ending the current session is a logout: the cookie is cleared too.
    const mine = (await third.api.GET('/sessions')).data![0]!.id;
    expect((await third.api.DELETE('/sessions/{session_id}', { params: { path: { session_id: mine } } })).response.status).toBe(204);
    expect(third.jar.get(app.config.sessionCookieName)).toBeUndefined();
  });

  it('suspends and activates members: sessions end, login says ACCOUNT_SUSPENDED, then works again', async () => {
    await signUp('owner@example.com', 'Crew');
    const owner = await loggedIn('owner@example.com');
    const invite = await owner.api.POST('/invitations', { body: { email: 'crew@example.com', role: 'member' } });
    expect(invite.response.status).toBe(201);
    const token = await tokenFromEmail(app, 'crew@example.com', '/invite/accept');
    const accepted = await browser(app).api.POST('/invitations/accept', { body: { token, password: PASSWORD } });
    const crewId = accepted.data!.user_id;
    const crew = await loggedIn('crew@example.com');

    const suspended = await owner.api.POST('/members/{user_id}/suspend', { params: { path: { user_id: crewId } } });
    expect(suspended.response.status).toBe(200);
    expect(suspended.data).toMatchObject({ user_id: crewId, status: 'suspended' });
    expectApiError(await crew.api.GET('/users/me'), 401, 'UNAUTHORIZED');
    expectApiError(await browser(app).api.POST('/auth/login', { body: { email: 'crew@example.com', password: PASSWORD } }), 401, 'ACCOUNT_SUSPENDED');
    const ownerId = (await owner.api.GET('/users/me')).data!.id;
    expectApiError(await owner.api.POST('/members/{user_id}/suspend', { params: { path: { user_id: ownerId } } }), 403, 'ACCESS_DENIED');
    expect((await owner.api.GET('/members')).data!.find((m) => m.user_id === crewId)?.status).toBe('suspended');

    const activated = await owner.api.POST('/members/{user_id}/activate', { params: { path: { user_id: crewId } } });
    expect(activated.data).toMatchObject({ status: 'active' });
    await loggedIn('crew@example.com');
  });

  it('throttles login per account whatever the IP, answering an unknown email the same way', async () => {
    await signUp('target@example.com');
    const attempt = (email: string, password: string) => browser(app).api.POST('/auth/login', { body: { email, password } });
    for (const email of ['target@example.com', 'nobody-here@example.com']) {
      for (let i = 0; i < 10; i += 1) expectApiError(await attempt(email, 'wrong password'), 401, 'INVALID_CREDENTIALS');
      const refused = await attempt(email, PASSWORD);
      expectApiError(refused, 429, 'RATE_LIMITED');
      const retryAfter = Number(refused.response.headers.get('Retry-After'));
      expect(retryAfter).toBeGreaterThan(800);
      expect(retryAfter).toBeLessThanOrEqual(900);
    }
  });

  it('keeps no email body in the outbox once delivered', async () => {
    await signUp('outbox@example.com');
    const rows = await app.db!.database.select<{ status: string; text_body: string; html_body: string; subject: string }>(
      `select status, text_body, html_body, subject from email_outbox where recipient = $1`,
      ['outbox@example.com'],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'sent', text_body: '', html_body: '' });
    const everything = await app.db!.database.select<{ text_body: string; html_body: string }>(
      `select text_body, html_body from email_outbox where status = 'sent'`,
      [],
    );
    expect(everything.length).toBeGreaterThan(0);
    for (const row of everything) expect(`${row.text_body}${row.html_body}`).not.toMatch(/token=/);
  });
});
