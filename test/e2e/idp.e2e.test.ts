import { createHash, randomBytes } from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKENS } from '../../app/container/tokens';
import type { TestAccountClaims } from '../fakes/oidc-test-provider';
import { startTestApp, type TestApp } from '../support/app';
import { TestBrowser } from '../support/browser';
import { HttpSession } from '../support/http-session';
import { authorizeUrl, freePort, JWT_SECRET, outcome, startIdpTestApp, throughProvider, WEB, type IdpTestApp } from '../support/idp-app';
import { tokenFromEmail } from '../support/mailbox';
import { requirePostgres } from '../support/postgres';
import { OtpauthTotpVerifier } from '../../adapters/crypto/otpauth-totp-verifier';

const PASSWORD = 'correct horse battery';
const totp = new OtpauthTotpVerifier();
const postgres = await requirePostgres();

const accounts: Record<string, TestAccountClaims> = {
  alice: { email: 'Alice@Example.com', email_verified: true, given_name: 'Alice', family_name: 'Liddell' },
  linda: { email: 'linda@example.com', email_verified: true },
  clara: { email: 'clara@example.com', email_verified: true },
  uma: { email: 'uma@example.com', email_verified: false },
  bob: { email: 'bob@example.com', email_verified: true },
  mona: { email: 'mona@example.com', email_verified: true },
  eve: { email: 'eve@example.com', email_verified: true, given_name: 'Eve\n\nAccept here: https://evil.example/', family_name: '\tMallory\u007f' },
  ctrl: { email: 'ctrl@example.com', email_verified: true, given_name: '\r\n', family_name: 'Ok' },
};

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

async function me(t: IdpTestApp, browser: TestBrowser) {
  const page = await browser.get(`${t.app.url}/users/me`);
  expect(page.status, page.body).toBe(200);
  return JSON.parse(page.body) as { id: number; email: string; has_password: boolean; email_verified: boolean; organization_id: number; organization_name: string; role: { name: string } };
}

/** The callback URL with its `state` replaced. */
function withState(callback: URL, state: string): URL {
  const url = new URL(callback);
  url.searchParams.set('state', state);
  return url;
}

describe.skipIf(!postgres)('sign-in through an OpenID Connect provider (B2C)', () => {
  let t: IdpTestApp;
  beforeAll(async () => {
    t = await startIdpTestApp(accounts);
  });
  afterAll(() => t?.close());

  it('authorize-url: code flow with PKCE S256 and a nonce, a signed 10-minute state, and the binding cookie', async () => {
    const response = await t.app.request('/auth/oauth/idp/authorize-url');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const url = new URL(((await response.json()) as { authorization_url: string }).authorization_url);
    expect(url.origin).toBe(t.provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: t.provider.clientId,
      redirect_uri: t.callbackUrl,
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      nonce: expect.any(String),
    });
    const [cookie] = response.headers.getSetCookie();
    expect(cookie).toMatch(/^idp_binding=[A-Za-z0-9_-]{43}; Path=\/auth\/oauth\/idp; Max-Age=600; HttpOnly; SameSite=Lax$/);
    const state = url.searchParams.get('state') ?? '';
    const claims = decodeJwt(state);
    expect(claims).toMatchObject({ aud: 'tenantkit:idp-state', jti: expect.any(String), bnd: expect.any(String) });
    expect(claims.exp! - claims.iat!).toBe(600);
    expect(state).not.toContain(cookie!.split(';')[0]!.split('=')[1]);
  });

  it('creates a passwordless org_admin on first sign-in, and finds it again by subject from another browser', async () => {
    const first = new TestBrowser();
    expect(outcome(await throughProvider(t, first, 'alice'))).toBeNull();
    const created = await me(t, first);
    expect(created).toMatchObject({ email: 'alice@example.com', has_password: false, email_verified: true, role: { name: 'org_admin' }, organization_name: "Alice Liddell's organization" });

    const second = new TestBrowser();
    expect(outcome(await throughProvider(t, second, 'alice'))).toBeNull();
    expect((await me(t, second)).id).toBe(created.id);
    const outcomes = t.app.logs().filter((line) => line.msg === 'identity provider sign-in').map((line) => line.outcome);
    expect(outcomes).toEqual(['created', 'returning']);
  });

  it('keeps names on one line: control characters a provider sends in a name become spaces, and a name of nothing but them is no name', async () => {
    const eve = new TestBrowser();
    expect(outcome(await throughProvider(t, eve, 'eve'))).toBeNull();
    const created = (await me(t, eve)) as Awaited<ReturnType<typeof me>> & { first_name: string | null; last_name: string | null };
    expect([created.first_name, created.last_name, created.organization_name]).toEqual(['Eve Accept here: https://evil.example/', 'Mallory', "Eve Accept here: https://evil.example/ Mallory's organization"]);

    const ctrl = new TestBrowser();
    expect(outcome(await throughProvider(t, ctrl, 'ctrl'))).toBeNull();
    expect(await me(t, ctrl)).toMatchObject({ first_name: null, last_name: 'Ok', organization_name: "Ok's organization" });
  });

  it('answers the callback with a no-store 302 and the security headers, sets the session cookie and clears the binding', async () => {
    const browser = new TestBrowser();
    const callback = await throughProvider(t, browser, 'bob', t.callbackUrl);
    const binding = browser.cookiesFor(callback.url).get('idp_binding');
    expect(binding).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const response = await fetch(callback.url, { redirect: 'manual', headers: { cookie: `idp_binding=${binding}` }, signal: AbortSignal.timeout(10_000) });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(WEB);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    const cookies = response.headers.getSetCookie();
    expect(cookies[0]).toBe('idp_binding=; Path=/auth/oauth/idp; Max-Age=0; HttpOnly; SameSite=Lax');
    expect(cookies[1]).toMatch(/^session_id=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=86400; HttpOnly; SameSite=Lax$/);
  });

  it('links a verified local account: same user, the local password and its sessions gone', async () => {
    const local = new HttpSession(t.app);
    const signup = await local.post('/auth/signup', { email: 'linda@example.com', password: PASSWORD });
    const { user_id } = (await signup.json()) as { user_id: number };
    const token = await tokenFromEmail(t.app, 'linda@example.com', '/verify-email');
    expect((await local.post('/auth/verify-email', { token })).status).toBe(200);
    expect((await local.post('/auth/login', { email: 'linda@example.com', password: PASSWORD })).status).toBe(200);

    const browser = new TestBrowser();
    expect(outcome(await throughProvider(t, browser, 'linda'))).toBeNull();
    expect(await me(t, browser)).toMatchObject({ id: user_id, has_password: false });
    expect((await local.get('/users/me')).status).toBe(401);
    expect((await local.post('/auth/login', { email: 'linda@example.com', password: PASSWORD })).status).toBe(401);
  });

  it('claims an unverified local account: old password refused, old sessions dead, email verified', async () => {
    const squatter = new HttpSession(t.app);
    const signup = await squatter.post('/auth/signup', { email: 'clara@example.com', password: PASSWORD });
    const { user_id } = (await signup.json()) as { user_id: number };
    // An unverified account cannot log in, so plant a live session the way a store would hold one.
    const oldToken = randomBytes(32).toString('base64url');
    await t.app.db!.database.run('insert into session (user_id, token_hash, created_at, last_seen_at, expires_at) values ($1, $2, $3, $3, $4)', [
      user_id,
      sha256(oldToken),
      new Date(),
      new Date(Date.now() + 3_600_000),
    ]);
    squatter.setCookie('session_id', oldToken);
    expect((await squatter.get('/users/me')).status).toBe(200);

    const browser = new TestBrowser();
    expect(outcome(await throughProvider(t, browser, 'clara'))).toBeNull();
    expect(await me(t, browser)).toMatchObject({ id: user_id, has_password: false, email_verified: true });

    expect((await squatter.get('/users/me')).status).toBe(401);
    const login = await new HttpSession(t.app).post('/auth/login', { email: 'clara@example.com', password: PASSWORD });
    expect(login.status).toBe(401);
    expect(await login.json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });

  it('refuses an email the provider has not verified, with no session', async () => {
    const browser = new TestBrowser();
    expect(outcome(await throughProvider(t, browser, 'uma'))).toBe('oauth_email_unverified');
    expect(browser.cookiesFor(t.app.url).has('session_id')).toBe(false);
  });

  it('answers 409 EMAIL_ALREADY_EXISTS when an org_admin invites the address of a provider-created account', async () => {
    expect(outcome(await throughProvider(t, new TestBrowser(), 'bob'))).toBeNull();
    const owner = new TestBrowser();
    expect(outcome(await throughProvider(t, owner, 'alice'))).toBeNull();
    const admin = new HttpSession(t.app);
    admin.setCookie('session_id', owner.cookiesFor(t.app.url).get('session_id')!);

    const invited = await admin.post('/invitations', { email: 'bob@example.com', role: 'member' });
    expect(invited.status).toBe(409);
    expect(await invited.json()).toMatchObject({ code: 'EMAIL_ALREADY_EXISTS' });
  });

  it('sends a user with MFA to APP_BASE_WEB_URL/mfa with a challenge cookie instead of a session, then verifies a code', async () => {
    const first = new TestBrowser();
    expect(outcome(await throughProvider(t, first, 'mona'))).toBeNull();
    const session = first.cookiesFor(t.app.url).get(t.app.config.sessionCookieName)!;
    const call = (path: string, body: unknown, cookie: string) =>
      t.app.request(path, { method: 'POST', headers: { 'Content-Type': 'application/json', Cookie: cookie }, body: JSON.stringify(body) });
    const cookieOf = (name: string) => `${name}=${session}`;
    const { secret } = (await (await call('/auth/mfa/totp/setup', undefined, cookieOf(t.app.config.sessionCookieName))).json()) as { secret: string };
    const confirm = await call('/auth/mfa/totp/confirm', { code: totp.codeAt(secret, totp.stepAt(new Date())) }, cookieOf(t.app.config.sessionCookieName));
    expect(confirm.status).toBe(200);

    const second = new TestBrowser();
    const page = await throughProvider(t, second, 'mona');
    expect(page.url.href).toBe(`${WEB}/mfa`);
    const cookies = second.cookiesFor(t.app.url);
    expect(cookies.get(t.app.config.sessionCookieName)).toBeUndefined();
    const challenge = cookies.get('mfa_challenge');
    expect(challenge).toMatch(/^[\w-]{43}$/);
    // A password-less account disables with a code; here the second factor completes the sign-in.
    const verified = await call('/auth/mfa/verify', { code: totp.codeAt(secret, totp.stepAt(new Date()) + 1) }, `mfa_challenge=${challenge}`);
    expect(verified.status).toBe(200);
    expect(verified.headers.getSetCookie().some((c) => c.startsWith(`${t.app.config.sessionCookieName}=`) && !c.includes('Max-Age=0'))).toBe(true);
  });

  it('reports a cancel on the provider as oauth_cancelled', async () => {
    const browser = new TestBrowser();
    const loginPage = await browser.get(await authorizeUrl(t, browser), { stopAt: WEB });
    expect(outcome(await browser.followLink(loginPage, 'Cancel', { stopAt: WEB }))).toBe('oauth_cancelled');
  });
});

describe.skipIf(!postgres)('the signed state and its binding cookie', () => {
  let t: IdpTestApp;
  beforeAll(async () => {
    t = await startIdpTestApp(accounts);
  });
  afterAll(() => t?.close());

  const resign = (state: string, expiresAt: number) => {
    const claims = decodeJwt(state);
    return new SignJWT({ bnd: claims.bnd })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setJti(claims.jti!)
      .setAudience('tenantkit:idp-state')
      .setIssuedAt(Math.floor(expiresAt / 1000) - 600)
      .setExpirationTime(Math.floor(expiresAt / 1000))
      .sign(new TextEncoder().encode(JWT_SECRET));
  };

  it('refuses a tampered state, and clears the cookie so the real one fails after it', async () => {
    const browser = new TestBrowser();
    const callback = (await throughProvider(t, browser, 'alice', t.callbackUrl)).url;
    const state = callback.searchParams.get('state')!;
    const tampered = `${state.slice(0, -2)}${state.endsWith('AA') ? 'BB' : 'AA'}`;

    expect(outcome(await browser.get(withState(callback, tampered), { stopAt: WEB }))).toBe('oauth_invalid_state');
    expect(browser.cookiesFor(callback).has('idp_binding')).toBe(false);
    expect(outcome(await browser.get(callback, { stopAt: WEB }))).toBe('oauth_invalid_state');
  });

  it('refuses an expired state (signed with the real secret), and accepts the same forgery unexpired', async () => {
    const expired = new TestBrowser();
    const late = (await throughProvider(t, expired, 'alice', t.callbackUrl)).url;
    const past = await resign(late.searchParams.get('state')!, Date.now() - 1_000);
    expect(outcome(await expired.get(withState(late, past), { stopAt: WEB }))).toBe('oauth_invalid_state');

    const control = new TestBrowser();
    const inTime = (await throughProvider(t, control, 'alice', t.callbackUrl)).url;
    const future = await resign(inTime.searchParams.get('state')!, Date.now() + 60_000);
    expect(outcome(await control.get(withState(inTime, future), { stopAt: WEB }))).toBeNull();
  });

  it('refuses a state whose server-side flow has expired', async () => {
    const browser = new TestBrowser();
    const callback = (await throughProvider(t, browser, 'alice', t.callbackUrl)).url;
    await t.app.db!.database.run('update idp_login_flow set expires_at = $1 where consumed_at is null', [new Date(Date.now() - 1_000)]);

    expect(outcome(await browser.get(callback, { stopAt: WEB }))).toBe('oauth_invalid_state');
  });

  it('accepts a state once: replayed with its cookie, or from the same browser, it is refused', async () => {
    const browser = new TestBrowser();
    const callback = (await throughProvider(t, browser, 'alice', t.callbackUrl)).url;
    const binding = browser.cookiesFor(callback).get('idp_binding');
    expect(outcome(await browser.get(callback, { stopAt: WEB }))).toBeNull();

    const replay = await fetch(callback, { redirect: 'manual', headers: { cookie: `idp_binding=${binding}` }, signal: AbortSignal.timeout(10_000) });
    expect(replay.headers.get('location')).toBe(`${WEB}/login?error=oauth_invalid_state`);
    expect(outcome(await browser.get(callback, { stopAt: WEB }))).toBe('oauth_invalid_state');
  });

  it("refuses another browser's state, without or with a cookie of its own, and leaves the flow to its owner", async () => {
    const owner = new TestBrowser();
    const callback = (await throughProvider(t, owner, 'alice', t.callbackUrl)).url;

    expect(outcome(await new TestBrowser().get(callback, { stopAt: WEB }))).toBe('oauth_invalid_state');
    const attacker = new TestBrowser();
    await authorizeUrl(t, attacker);
    expect(outcome(await attacker.get(callback, { stopAt: WEB }))).toBe('oauth_invalid_state');

    expect(outcome(await owner.get(callback, { stopAt: WEB }))).toBeNull();
  });

  it('reports a callback without state or code, and logs every cause as a warning without codes or states', async () => {
    const browser = new TestBrowser();
    const callback = (await throughProvider(t, browser, 'alice', t.callbackUrl)).url;
    const noCode = new URL(callback);
    noCode.searchParams.delete('code');
    expect(outcome(await browser.get(noCode, { stopAt: WEB }))).toBe('oauth_missing_code');
    expect(outcome(await browser.get(t.callbackUrl, { stopAt: WEB }))).toBe('oauth_invalid_state');

    const failures = t.app.logs().filter((line) => line.msg === 'identity provider sign-in failed');
    expect(failures.length).toBeGreaterThan(0);
    for (const line of failures) expect(line).toMatchObject({ level: 40, reason: expect.stringMatching(/^oauth_/), cause: expect.any(String) });
    expect(failures.map((line) => line.cause)).toEqual(expect.arrayContaining(['state expired', 'state bad signature', 'state already used, or its flow expired']));
    const logged = JSON.stringify(t.app.logs());
    for (const secret of [callback.searchParams.get('code')!, callback.searchParams.get('state')!]) expect(logged).not.toContain(secret);
  });
});

describe.skipIf(!postgres)('sign-in through the provider in B2B', () => {
  let t: IdpTestApp;
  beforeAll(async () => {
    const b2bAccounts = Object.fromEntries(['olga', 'ivy', 'nora'].map((name) => [name, { email: `${name}@example.com`, email_verified: true }]));
    t = await startIdpTestApp(b2bAccounts, { APP_MODE: 'b2b' });
  });
  afterAll(() => t?.close());

  it('refuses an email nobody invited as oauth_signup_closed', async () => {
    expect(outcome(await throughProvider(t, new TestBrowser(), 'nora'))).toBe('oauth_signup_closed');
  });

  it('lets invited emails in with the invited role in the inviting organization: an org_admin, then the member she invites', async () => {
    await t.app.server.container.get(TOKENS.OrganizationUseCases).createSystemAdmin.execute({ email: 'root@example.com', password: PASSWORD });
    const root = new HttpSession(t.app);
    expect((await root.post('/auth/login', { email: 'root@example.com', password: PASSWORD })).status).toBe(200);
    const created = await root.post('/organizations', { name: 'Acme', admin_email: 'olga@example.com' });
    expect(created.status).toBe(201);
    const organization = (await created.json()) as { id: number };

    const olga = new TestBrowser();
    expect(outcome(await throughProvider(t, olga, 'olga'))).toBeNull();
    expect(await me(t, olga)).toMatchObject({ organization_id: organization.id, role: { name: 'org_admin' }, has_password: false, email_verified: true });

    const admin = new HttpSession(t.app);
    admin.setCookie('session_id', olga.cookiesFor(t.app.url).get('session_id')!);
    expect((await admin.post('/invitations', { email: 'ivy@example.com', role: 'readonly' })).status).toBe(201);
    const ivy = new TestBrowser();
    expect(outcome(await throughProvider(t, ivy, 'ivy'))).toBeNull();
    expect(await me(t, ivy)).toMatchObject({ email: 'ivy@example.com', organization_id: organization.id, role: { name: 'readonly' }, has_password: false });

    // The provider sign-in used the invitation up: its emailed link no longer works.
    const token = await tokenFromEmail(t.app, 'ivy@example.com', '/invite/accept');
    const accept = await new HttpSession(t.app).post('/invitations/accept', { token, password: PASSWORD });
    expect(accept.status).toBe(400);
    expect(await accept.json()).toMatchObject({ code: 'INVALID_TOKEN' });
  });

  it('joins only the organization whose invitation link the sign-in started from, never the newest of several', async () => {
    const root = new HttpSession(t.app);
    expect((await root.post('/auth/login', { email: 'root@example.com', password: PASSWORD })).status).toBe(200);
    const invitedBy = async (name: string) => ((await (await root.post('/organizations', { name, admin_email: 'nora@example.com' })).json()) as { id: number }).id;
    const chosen = await invitedBy('Chosen');
    await invitedBy('Other');

    expect(outcome(await throughProvider(t, new TestBrowser(), 'nora'))).toBe('oauth_signup_closed');
    const chosenToken = await tokenFromEmail(t.app, 'nora@example.com', '/invite/accept', 0);
    const nora = new TestBrowser();
    expect(outcome(await throughProvider(t, nora, 'nora', WEB, chosenToken))).toBeNull();
    expect(await me(t, nora)).toMatchObject({ organization_id: chosen, role: { name: 'org_admin' } });
  });
});

describe.skipIf(!postgres)('when the provider is down', () => {
  it('a sign-in whose provider went away before the callback ends in oauth_failed', async () => {
    const t = await startIdpTestApp(accounts);
    try {
      const browser = new TestBrowser();
      const callback = (await throughProvider(t, browser, 'alice', t.callbackUrl)).url;
      await t.provider.close();
      expect(outcome(await browser.get(callback, { stopAt: WEB }))).toBe('oauth_failed');
      const [line] = t.app.logs().filter((entry) => entry.msg === 'identity provider sign-in failed');
      expect(line).toMatchObject({ level: 40, reason: 'oauth_failed', cause: expect.stringMatching(/^unreachable: /) });
    } finally {
      await t.close();
    }
  });

  it('an issuer nobody answers at: the app starts, authorize-url answers 503, the callback still redirects', async () => {
    const app = await startTestApp({
      APP_BASE_WEB_URL: WEB,
      APP_IDP_ISSUER: `http://127.0.0.1:${await freePort()}`,
      APP_IDP_CLIENT_ID: 'c',
      APP_IDP_CLIENT_SECRET: 's',
    });
    try {
      const response = await app.request('/auth/oauth/idp/authorize-url');
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(response.headers.getSetCookie()).toEqual([]);
      const callback = await app.request('/auth/oauth/idp/callback?code=x&state=y', { redirect: 'manual' });
      expect(callback.status).toBe(302);
      expect(callback.headers.get('location')).toBe(`${WEB}/login?error=oauth_invalid_state`);
    } finally {
      await app.close();
    }
  });
});

describe.skipIf(!postgres)('when no provider is configured', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it.each(['/auth/oauth/idp/authorize-url', '/auth/oauth/idp/callback?code=x&state=y'])('GET %s answers 404 NOT_FOUND', async (path) => {
    const response = await app.request(path, { redirect: 'manual' });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'NOT_FOUND' });
  });
});
