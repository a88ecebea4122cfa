import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createApiClient, CookieJar } from '../../app/client/index';
import { requireChromium } from '../support/chromium';
import { startTestApp, type TestApp } from '../support/app';
import { freePort } from '../support/idp-app';
import { testSessions } from '../support/sessions';

const found = requireChromium();
const EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PAGE = new URL('../fixtures/passkeys/passkey-page.html', import.meta.url);

/**
 * The real browser API: headless Chromium with a CDP virtual authenticator (resident keys, user
 * verification) runs the page docs/passkeys.md shows, served at APP_BASE_WEB_URL, against the
 * API on another port of the same site. Register, log out, sign in with the passkey, and the
 * session works through the generated client.
 */
describe.skipIf(!found)('passkeys in a real browser', () => {
  let app: TestApp;
  let web: Server;
  let webUrl: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    const port = await freePort();
    webUrl = `http://localhost:${port}`;
    const html = await readFile(PAGE, 'utf8');
    web = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html));
    await new Promise<void>((resolve) => web.listen(port, '127.0.0.1', resolve));
    app = await startTestApp({ APP_BASE_WEB_URL: webUrl, APP_CORS_ORIGINS: webUrl });
    browser = await chromium.launch({ executablePath: EXECUTABLE, args: ['--no-sandbox'] });
    context = await browser.newContext();
    page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => web?.close(resolve));
    await app?.close();
  });

  const apiHost = () => new URL(app.url.replace('127.0.0.1', 'localhost'));
  const sessionCookie = async () => (await context.cookies(apiHost().origin)).find((cookie) => cookie.name === app.config.sessionCookieName)?.value;

  it('registers a passkey, logs out, signs in with it, and the new session works', async () => {
    const sessions = testSessions(app.db!.database);
    const member = await sessions.loginAs('member', await sessions.newOrganization());
    await context.addCookies([{ name: app.config.sessionCookieName, value: member.token, url: apiHost().origin }]);
    await page.goto(`${webUrl}/?api=${encodeURIComponent(apiHost().origin)}`);

    const registered = await page.evaluate(() => (globalThis as unknown as { registerPasskey(name: string): Promise<{ id: number; name: string }> }).registerPasskey('Chromium'));
    expect(registered).toMatchObject({ name: 'Chromium', device_type: 'single_device' });

    await page.evaluate(() => (globalThis as unknown as { logOut(): Promise<unknown> }).logOut());
    expect(await sessionCookie()).toBeUndefined();

    const signedIn = await page.evaluate(() => (globalThis as unknown as { signInWithPasskey(): Promise<{ user_id: number }> }).signInWithPasskey());
    expect(signedIn).toEqual({ user_id: member.userId });

    const token = await sessionCookie();
    expect(token).toBeDefined();
    expect(token).not.toBe(member.token);
    const jar = new CookieJar();
    jar.set(app.config.sessionCookieName, token!);
    const api = createApiClient(app.url, jar);
    const me = await api.GET('/users/me');
    expect(me.data).toMatchObject({ id: member.userId });
    const passkeys = await api.GET('/passkeys');
    expect(passkeys.data).toEqual([expect.objectContaining({ id: registered.id, last_used_at: expect.any(String) })]);
  }, 60_000);
});
