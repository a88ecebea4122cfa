import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientBrowser, type ClientBrowser as Browser } from '../support/client-browser';
import { startTestApp, type TestApp } from '../support/app';
import { expectApiError } from '../support/http-assertions';
import { testSessions, type TestSessions } from '../support/sessions';
import { SoftwareAuthenticator } from '../fakes/software-authenticator';
import { tokenFromEmail } from '../support/mailbox';

/** The default APP_BASE_WEB_URL in dev: the passkeys' origin, and `localhost` their rp id. */
const WEB_ORIGIN = 'http://localhost:5173';
/** One browser with its own cookies and client IP, holding `sessionToken`'s cookie when given. */
function browser(app: TestApp, sessionToken?: string): Browser {
  const made = clientBrowser(app, { subnet: '198.18' });
  if (sessionToken) made.jar.set(app.config.sessionCookieName, sessionToken);
  return made;
}

async function enrol(member: Browser, authenticator = new SoftwareAuthenticator(WEB_ORIGIN)) {
  const options = (await member.api.POST('/auth/passkeys/register/options')).data!;
  const registered = await member.api.POST('/auth/passkeys/register', { body: { response: authenticator.register(options) as never } });
  expect(registered.response.status).toBe(201);
  return { authenticator, passkey: registered.data! };
}

async function signIn(visitor: Browser, authenticator: SoftwareAuthenticator) {
  const options = (await visitor.api.POST('/auth/passkeys/login/options')).data!;
  return visitor.api.POST('/auth/passkeys/login', { body: { response: authenticator.assert(options) as never } });
}

describe('passkeys over HTTP', () => {
  let app: TestApp;
  let sessions: TestSessions;
  const member = async (organizationId?: number) => {
    const session = await sessions.loginAs('member', organizationId ?? (await sessions.newOrganization()));
    return { ...session, browser: browser(app, session.token) };
  };

  beforeAll(async () => {
    app = await startTestApp();
    sessions = testSessions(app.db!.database);
  });
  afterAll(() => app?.close());

  it('registers, lists, renames and deletes a passkey; another user\'s id is 404', async () => {
    const alice = await member();
    const options = (await alice.browser.api.POST('/auth/passkeys/register/options')).data!;
    expect(options).toMatchObject({ rp: { id: 'localhost' }, attestation: 'none', authenticatorSelection: { residentKey: 'required', userVerification: 'required' } });
    const authenticator = new SoftwareAuthenticator(WEB_ORIGIN);
    const registered = await alice.browser.api.POST('/auth/passkeys/register', { body: { response: authenticator.register(options) as never, name: 'Laptop' } });
    expect(registered.response.status).toBe(201);
    expect(registered.data).toEqual({ id: expect.any(Number), name: 'Laptop', created_at: expect.any(String), last_used_at: null, backed_up: false, device_type: 'single_device', transports: ['internal'] });
    const id = registered.data!.id;

    expect((await alice.browser.api.GET('/passkeys')).data).toEqual([registered.data]);
    const bob = await member();
    expectApiError(await bob.browser.api.PATCH('/passkeys/{passkey_id}', { params: { path: { passkey_id: id } }, body: { name: 'Mine' } }), 404, 'RESOURCE_NOT_FOUND');
    expectApiError(await bob.browser.api.DELETE('/passkeys/{passkey_id}', { params: { path: { passkey_id: id } } }), 404, 'RESOURCE_NOT_FOUND');
    expectApiError(await alice.browser.api.PATCH('/passkeys/{passkey_id}', { params: { path: { passkey_id: id } }, body: { name: 'Two\nlines' } }), 422, 'VALIDATION_ERROR');
    expect((await alice.browser.api.PATCH('/passkeys/{passkey_id}', { params: { path: { passkey_id: id } }, body: { name: 'Work laptop' } })).data).toMatchObject({ name: 'Work laptop' });
    expect((await alice.browser.api.DELETE('/passkeys/{passkey_id}', { params: { path: { passkey_id: id } } })).response.status).toBe(204);
    expect((await alice.browser.api.GET('/passkeys')).data).toEqual([]);
  });

  it('a registration that does not verify is 400 VALIDATION_ERROR naming body.response', async () => {
    const alice = await member();
    const options = (await alice.browser.api.POST('/auth/passkeys/register/options')).data!;
    const response = new SoftwareAuthenticator('https://evil.example').register(options);

    const refused = expectApiError(await alice.browser.api.POST('/auth/passkeys/register', { body: { response: response as never } }), 400, 'VALIDATION_ERROR');
    expect(refused).toEqual({ 'body.response': expect.any(String) });
  });

  it('signs in with the passkey_challenge cookie, once: the second use is 401 INVALID_CREDENTIALS', async () => {
    const alice = await member();
    const { authenticator } = await enrol(alice.browser);
    const visitor = browser(app);
    const options = (await visitor.api.POST('/auth/passkeys/login/options')).data!;
    expect(options).toMatchObject({ rpId: 'localhost', userVerification: 'required', allowCredentials: [] });
    expect(visitor.setCookies()).toEqual([expect.stringMatching(/^passkey_challenge=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=300; HttpOnly; SameSite=Lax$/)]);
    const challengeCookie = visitor.jar.header();
    const assertion = authenticator.assert(options);

    const signedIn = await visitor.api.POST('/auth/passkeys/login', { body: { response: assertion as never } });
    expect(signedIn.data).toEqual({ user_id: alice.userId });
    expect(visitor.setCookies()).toEqual(expect.arrayContaining([expect.stringMatching(/^passkey_challenge=; .*Max-Age=0/), expect.stringMatching(new RegExp(`^${app.config.sessionCookieName}=`))]));
    expect((await visitor.api.GET('/users/me')).data).toMatchObject({ id: alice.userId });

    const replay = await fetch(`${app.url}/auth/passkeys/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: challengeCookie, 'X-Forwarded-For': '198.18.200.1' },
      body: JSON.stringify({ response: authenticator.assert(options) }),
    });
    expect(replay.status).toBe(401);
    expect(await replay.json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });
  });

  it('require_mfa: a passkey-only member may enrol, their passkey session passes, their other sessions do not', async () => {
    const organizationId = await sessions.newOrganization();
    const boss = await sessions.loginAs('org_admin', organizationId);
    expect((await browser(app, boss.token).api.PUT('/settings/organization', { body: { require_mfa: true } })).response.status).toBe(200);
    const alice = await member(organizationId);

    expectApiError(await alice.browser.api.GET('/projects'), 403, 'MFA_REQUIRED');
    const { authenticator } = await enrol(alice.browser);
    expect((await alice.browser.api.GET('/passkeys')).response.status).toBe(200);
    expectApiError(await alice.browser.api.GET('/projects'), 403, 'MFA_REQUIRED');

    const visitor = browser(app);
    expect((await signIn(visitor, authenticator)).data).toEqual({ user_id: alice.userId });
    expect((await visitor.api.GET('/projects')).response.status).toBe(200);
  });

  it('require_mfa: an emailed link signs a passkey-only member in to a session that is not both factors', async () => {
    const organizationId = await sessions.newOrganization();
    const boss = await sessions.loginAs('org_admin', organizationId);
    expect((await browser(app, boss.token).api.PUT('/settings/organization', { body: { require_mfa: true } })).response.status).toBe(200);
    const alice = await member(organizationId);
    await enrol(alice.browser);
    const email = (await alice.browser.api.GET('/users/me')).data!.email;

    const visitor = browser(app);
    expect((await visitor.api.POST('/auth/email-link', { body: { email } })).response.status).toBe(202);
    const linked = await visitor.api.POST('/auth/email-link/verify', { body: { token: await tokenFromEmail(app, email, '/sign-in/email-link') } });
    expect(linked.data).toEqual({ user_id: alice.userId });
    expectApiError(await visitor.api.GET('/projects'), 403, 'MFA_REQUIRED');
    expect((await visitor.api.GET('/passkeys')).response.status).toBe(200);
    expect((await visitor.api.POST('/auth/passkeys/register/options')).response.status).toBe(200);
  });

  it('a suspended member is told ACCOUNT_SUSPENDED only with a verified passkey', async () => {
    const organizationId = await sessions.newOrganization();
    const boss = await sessions.loginAs('org_admin', organizationId);
    const alice = await member(organizationId);
    const { authenticator } = await enrol(alice.browser);
    expect((await browser(app, boss.token).api.POST('/members/{user_id}/suspend', { params: { path: { user_id: alice.userId } } })).response.status).toBe(200);

    const stranger = new SoftwareAuthenticator(WEB_ORIGIN);
    stranger.register({ rp: { id: 'localhost' }, user: { id: 'c3RyYW5nZXI' }, challenge: 'eA' });
    expectApiError(await signIn(browser(app), stranger), 401, 'INVALID_CREDENTIALS');
    expectApiError(await signIn(browser(app), authenticator), 401, 'ACCOUNT_SUSPENDED');
  });

  it("counts a known credential's failed sign-ins against its account as wrong passwords are, whatever the IP: the 11th is 429 for passkey and password alike", async () => {
    const alice = await member();
    const { authenticator } = await enrol(alice.browser);
    const email = (await alice.browser.api.GET('/users/me')).data!.email;
    expect((await signIn(browser(app), authenticator)).data).toEqual({ user_id: alice.userId });

    // Each attempt from a new browser, so a new client IP: only the account's counter can refuse.
    // The counter stands at 1 after the sign-in above: reporting 1 again does not move it forward.
    const failures = [{ withoutUserVerification: true }, { origin: 'https://evil.example' }, { challenge: 'c3RhbGU' }, { counter: 1 }];
    for (let i = 0; i < 10; i += 1) {
      const visitor = browser(app);
      const options = (await visitor.api.POST('/auth/passkeys/login/options')).data!;
      const failed = await visitor.api.POST('/auth/passkeys/login', { body: { response: authenticator.assert(options, failures[i % failures.length]) as never } });
      expectApiError(failed, 401, 'INVALID_CREDENTIALS');
    }

    const refused = await signIn(browser(app), authenticator);
    expectApiError(refused, 429, 'RATE_LIMITED');
    expect(Number(refused.response.headers.get('Retry-After'))).toBeGreaterThan(800);
    expectApiError(await browser(app).api.POST('/auth/login', { body: { email, password: 'whatever it is' } }), 429, 'RATE_LIMITED');
  });

  it('refuses a passkey sign-in with 429 before verifying once wrong passwords have filled the account\'s window; an unknown credential counts per IP only', async () => {
    const alice = await member();
    const { authenticator } = await enrol(alice.browser);
    const email = (await alice.browser.api.GET('/users/me')).data!.email;
    for (let i = 0; i < 10; i += 1) {
      expectApiError(await browser(app).api.POST('/auth/login', { body: { email, password: 'wrong password' } }), 401, 'INVALID_CREDENTIALS');
    }
    expectApiError(await signIn(browser(app), authenticator), 429, 'RATE_LIMITED');

    const stranger = new SoftwareAuthenticator(WEB_ORIGIN);
    stranger.register({ rp: { id: 'localhost' }, user: { id: 'c3RyYW5nZXI' }, challenge: 'eA' });
    const bob = await member();
    const bobs = await enrol(bob.browser);
    for (let i = 0; i < 11; i += 1) expectApiError(await signIn(browser(app), stranger), 401, 'INVALID_CREDENTIALS');
    expect((await signIn(browser(app), bobs.authenticator)).data).toEqual({ user_id: bob.userId });
  });

  it('docs/passkeys.md shows the page the browser test runs, as it is', async () => {
    const page = await readFile(new URL('../fixtures/passkeys/passkey-page.html', import.meta.url), 'utf8');
    const doc = await readFile(new URL('../../docs/passkeys.md', import.meta.url), 'utf8');

    expect(doc).toContain('```html\n' + page + '```');
  });
});

describe('passkeys for a relying party set by APP_WEBAUTHN_RP_ID and APP_WEBAUTHN_ORIGINS', () => {
  let app: TestApp;
  let sessions: TestSessions;
  beforeAll(async () => {
    app = await startTestApp({ APP_WEBAUTHN_RP_ID: 'example.com', APP_WEBAUTHN_ORIGINS: 'https://example.com, https://app.example.com' });
    sessions = testSessions(app.db!.database);
  });
  afterAll(() => app?.close());

  it('scopes passkeys to that rp id, accepts every listed origin, and refuses APP_BASE_WEB_URL, which is no longer listed', async () => {
    const alice = await sessions.loginAs('member', await sessions.newOrganization());
    const aliceBrowser = browser(app, alice.token);
    const options = (await aliceBrowser.api.POST('/auth/passkeys/register/options')).data!;
    expect(options.rp).toMatchObject({ id: 'example.com' });
    const fromWebUrl = new SoftwareAuthenticator(WEB_ORIGIN).register(options);
    expectApiError(await aliceBrowser.api.POST('/auth/passkeys/register', { body: { response: fromWebUrl as never } }), 400, 'VALIDATION_ERROR');

    for (const origin of ['https://example.com', 'https://app.example.com']) {
      const { authenticator } = await enrol(aliceBrowser, new SoftwareAuthenticator(origin));
      const visitor = browser(app);
      expect((await visitor.api.POST('/auth/passkeys/login/options')).data).toMatchObject({ rpId: 'example.com' });
      expect((await signIn(visitor, authenticator)).data).toEqual({ user_id: alice.userId });
    }
  });
});
