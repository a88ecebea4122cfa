import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { startOidcTestProvider, type OidcTestProvider, type TestAccountClaims } from '../fakes/oidc-test-provider';
import { startTestApp, type TestApp } from './app';
import type { Page, TestBrowser } from './browser';

/** APP_BASE_WEB_URL of the identity-provider test apps: the browser stops there, nothing listens. */
export const WEB = 'http://127.0.0.1:9/web';
export const JWT_SECRET = 'idp-e2e-state-secret-0123456789ab';

/** A port nothing listens on: bound, read, released. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface IdpTestApp {
  app: TestApp;
  provider: OidcTestProvider;
  /** The redirect URI registered with the provider: the app's own callback. */
  callbackUrl: string;
  close(): Promise<void>;
}

/**
 * A real OpenID provider and the app wired to it. The provider must know the redirect URI up
 * front and the app's port would be random, so a free port is picked first and the app told to
 * listen on it, with APP_BASE_API_URL naming it.
 */
export async function startIdpTestApp(accounts: Record<string, TestAccountClaims>, env: Record<string, string> = {}): Promise<IdpTestApp> {
  const port = await freePort();
  const callbackUrl = `http://127.0.0.1:${port}/auth/oauth/idp/callback`;
  const provider = await startOidcTestProvider({ redirectUri: callbackUrl, accounts });
  try {
    const app = await startTestApp({
      APP_PORT: String(port),
      APP_BASE_API_URL: `http://127.0.0.1:${port}`,
      APP_BASE_WEB_URL: WEB,
      APP_JWT_SECRET_KEY: JWT_SECRET,
      APP_IDP_ISSUER: provider.issuer,
      APP_IDP_CLIENT_ID: provider.clientId,
      APP_IDP_CLIENT_SECRET: provider.clientSecret,
      ...env,
    });
    return {
      app,
      provider,
      callbackUrl,
      close: async () => {
        await app.close();
        await provider.close();
      },
    };
  } catch (error) {
    await provider.close();
    throw error;
  }
}

/** The authorize URL the app hands the frontend, fetched with (and setting cookies in) `browser`. */
export async function authorizeUrl(t: IdpTestApp, browser: TestBrowser, invitationToken?: string): Promise<string> {
  const query = invitationToken === undefined ? '' : `?invitation_token=${encodeURIComponent(invitationToken)}`;
  const page = await browser.get(`${t.app.url}/auth/oauth/idp/authorize-url${query}`);
  expect(page.status, page.body).toBe(200);
  return (JSON.parse(page.body) as { authorization_url: string }).authorization_url;
}

/**
 * The user's side: authorize URL → the provider's login and consent screens (skipped when the
 * provider remembers them) → back. Stops at the first redirect into `stopAt`: the web app by
 * default, or the app's callback to tamper with it. `invitationToken`: the sign-in starts from
 * that invitation link.
 */
export async function throughProvider(t: IdpTestApp, browser: TestBrowser, login: string, stopAt = WEB, invitationToken?: string): Promise<Page> {
  let page = await browser.get(await authorizeUrl(t, browser, invitationToken), { stopAt });
  for (let screens = 0; screens < 3 && !page.stopped && page.body.includes('<form'); screens += 1) {
    page = await browser.submitForm(page, page.body.includes('name="login"') ? { login } : {}, { stopAt });
  }
  expect(page.stopped, `expected a redirect into ${stopAt}, got ${page.status} at ${page.url.href}: ${page.body}`).toBe(true);
  return page;
}

/** Where a finished sign-in sent the browser: `null` for the app's home (success), else the `error` reason. */
export function outcome(page: Page): string | null {
  expect(page.url.href.startsWith(WEB)).toBe(true);
  if (page.url.href === WEB) return null;
  expect(page.url.pathname).toBe('/web/login');
  return page.url.searchParams.get('error');
}
