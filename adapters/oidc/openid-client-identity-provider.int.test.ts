import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { IdentityProviderError } from '../../core/accounts/identity-provider.port';
import { startOidcTestProvider, type OidcTestProvider, type TestAccountClaims } from '../../test/fakes/oidc-test-provider';
import { TestBrowser } from '../../test/support/browser';
import { OpenIdClientIdentityProvider } from './openid-client-identity-provider';

// Never visited: the browser stops when the provider redirects here, as the app's callback would.
const redirectUri = 'http://127.0.0.1:9/auth/oauth/idp/callback';

const accounts: Record<string, TestAccountClaims> = {
  alice: { email: '  Alice@Example.COM ', email_verified: true, given_name: 'Alice', family_name: 'Liddell' },
  bob: { email: 'bob@example.com', email_verified: false },
  carol: { email: 'carol@example.com', email_verified: 'true' },
  dave: { email: 'dave@example.com', email_verified: 'false' },
  erin: { email: 'erin@example.com' },
  frank: {},
};

function adapterFor(provider: Pick<OidcTestProvider, 'issuer' | 'clientId' | 'clientSecret'>, timeoutMs = 5_000) {
  return new OpenIdClientIdentityProvider({
    issuer: provider.issuer,
    clientId: provider.clientId,
    clientSecret: provider.clientSecret,
    redirectUri,
    timeoutMs,
    allowInsecureHttpForTests: true,
  });
}

/** Runs the user's side: provider login page, consent page, then the redirect back to the app. */
async function signIn(adapter: OpenIdClientIdentityProvider, login: string, state = 'state-123') {
  const request = await adapter.createAuthorizationRequest(state);
  const browser = new TestBrowser();
  const loginPage = await browser.get(request.url, { stopAt: redirectUri });
  const consentPage = await browser.submitForm(loginPage, { login }, { stopAt: redirectUri });
  const callback = await browser.submitForm(consentPage, {}, { stopAt: redirectUri });
  expect(callback.stopped, `expected a redirect to the app, got ${callback.status}: ${callback.body}`).toBe(true);
  return { request, callbackUrl: callback.url, browser };
}

async function signInAndComplete(adapter: OpenIdClientIdentityProvider, login: string) {
  const { request, callbackUrl } = await signIn(adapter, login);
  return adapter.completeAuthorization({ callbackUrl, expectedState: 'state-123', codeVerifier: request.codeVerifier, nonce: request.nonce });
}

describe.each([
  { claimsInIdToken: false, where: 'userinfo' },
  { claimsInIdToken: true, where: 'the ID token' },
])('OpenIdClientIdentityProvider with claims in $where', ({ claimsInIdToken }) => {
  let provider: OidcTestProvider;
  beforeAll(async () => {
    provider = await startOidcTestProvider({ redirectUri, accounts, claimsInIdToken });
  });
  afterAll(() => provider.close());

  it('returns the verified identity, email trimmed and lower-cased', async () => {
    await expect(signInAndComplete(adapterFor(provider), 'alice')).resolves.toEqual({
      issuer: provider.issuer,
      subject: 'alice',
      email: 'alice@example.com',
      emailVerified: true,
      givenName: 'Alice',
      familyName: 'Liddell',
    });
  });

  it.each([
    ['bob', false, 'false'],
    ['carol', true, 'the string "true"'],
    ['dave', false, 'the string "false"'],
    ['erin', false, 'absent'],
  ])('reports %s as emailVerified %s when email_verified is %s', async (login, verified) => {
    const identity = await signInAndComplete(adapterFor(provider), login);
    expect(identity.email).toBe(`${login}@example.com`);
    expect(identity.emailVerified).toBe(verified);
  });

  it('reports no email and no names when the provider has none', async () => {
    await expect(signInAndComplete(adapterFor(provider), 'frank')).resolves.toMatchObject({
      subject: 'frank',
      email: null,
      emailVerified: false,
      givenName: null,
      familyName: null,
    });
  });
});

// The checks every IdentityProvider makes (state, nonce, PKCE, one-time codes, cancel) are in
// test/contracts/identity-provider.contract.ts, run on this adapter and on the core tests' fake.
describe('OpenIdClientIdentityProvider flow checks', () => {
  let provider: OidcTestProvider;
  let adapter: OpenIdClientIdentityProvider;
  beforeAll(async () => {
    provider = await startOidcTestProvider({ redirectUri, accounts });
    adapter = adapterFor(provider);
  });
  afterAll(() => provider.close());

  it('asks for the code flow with PKCE S256, the given state and a fresh nonce', async () => {
    const first = await adapter.createAuthorizationRequest('state-abc');
    const second = await adapter.createAuthorizationRequest('state-abc');
    const url = new URL(first.url);
    expect(url.origin).toBe(provider.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: provider.clientId,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      state: 'state-abc',
      nonce: first.nonce,
      code_challenge_method: 'S256',
    });
    expect(url.searchParams.get('code_challenge')).not.toBe(first.codeVerifier);
    expect(second.nonce).not.toBe(first.nonce);
    expect(second.codeVerifier).not.toBe(first.codeVerifier);
  });

  it('keeps the provider session cookies per host and records every hop', async () => {
    const { browser, callbackUrl } = await signIn(adapter, 'alice');
    expect(browser.cookiesFor(provider.issuer).has('_session')).toBe(true);
    // The provider expires each resume cookie once its interaction is done.
    const resumes = browser.history.filter((hop) => new URL(hop.url).pathname.startsWith('/auth/'));
    expect(resumes).toHaveLength(2);
    for (const hop of resumes) expect(browser.cookiesFor(hop.url).has('_interaction_resume')).toBe(false);
    expect(browser.history.at(-1)?.location).toBe(callbackUrl.href);
    expect(callbackUrl.searchParams.get('state')).toBe('state-123');
    expect(callbackUrl.searchParams.get('code')).toEqual(expect.any(String));
  });

  it('keeps an unknown login on the provider login page', async () => {
    const request = await adapter.createAuthorizationRequest('state-123');
    const browser = new TestBrowser();
    const loginPage = await browser.submitForm(await browser.get(request.url), { login: 'mallory' }, { stopAt: redirectUri });
    expect(loginPage).toMatchObject({ status: 200, stopped: false });
    expect(loginPage.body).toContain('Unknown account mallory');
  });
});

describe('OpenIdClientIdentityProvider when the provider is unavailable', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      const closed = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      await closed;
    }
  });

  /** A port nothing listens on: bound, read, released. */
  async function freePort(): Promise<number> {
    const server = await listen((_req, res) => res.end());
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    return port;
  }

  async function listen(handler: Parameters<typeof createServer>[1]): Promise<Server> {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return server;
  }

  const issuerOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const someClient = { clientId: 'c', clientSecret: 's' };

  it('rejects as unreachable when nothing listens at the issuer', async () => {
    const adapter = adapterFor({ issuer: `http://127.0.0.1:${await freePort()}`, ...someClient });
    await expect(adapter.createAuthorizationRequest('s')).rejects.toBeInstanceOf(IdentityProviderError);
    await expect(adapter.createAuthorizationRequest('s')).rejects.toMatchObject({ reason: 'unreachable' });
  });

  it('rejects as unreachable when the provider does not answer within timeoutMs', async () => {
    const adapter = adapterFor({ issuer: issuerOf(await listen(() => {})), ...someClient }, 300);
    const started = Date.now();
    await expect(adapter.createAuthorizationRequest('s')).rejects.toMatchObject({ reason: 'unreachable' });
    expect(Date.now() - started).toBeLessThan(3_000);
  });

  it('rejects as unreachable on a 5xx, as rejected on a 404 discovery document', async () => {
    const failing = await listen((_req, res) => res.writeHead(503).end());
    const missing = await listen((_req, res) => res.writeHead(404).end());
    await expect(adapterFor({ issuer: issuerOf(failing), ...someClient }).createAuthorizationRequest('s')).rejects.toMatchObject({ reason: 'unreachable' });
    await expect(adapterFor({ issuer: issuerOf(missing), ...someClient }).createAuthorizationRequest('s')).rejects.toMatchObject({ reason: 'rejected' });
  });

  it('does not cache a failed discovery: the same instance works once the provider is back', async () => {
    const first = await startOidcTestProvider({ redirectUri, accounts });
    const adapter = adapterFor(first);
    await first.close();
    await expect(adapter.createAuthorizationRequest('s')).rejects.toMatchObject({ reason: 'unreachable' });
    const back = await startOidcTestProvider({ redirectUri, accounts, port: first.port, clientSecret: first.clientSecret });
    try {
      await expect(signInAndComplete(adapter, 'alice')).resolves.toMatchObject({ issuer: first.issuer, subject: 'alice' });
    } finally {
      await back.close();
    }
  });

  it('rejects as unreachable when the provider goes down between redirect and callback', async () => {
    const provider = await startOidcTestProvider({ redirectUri, accounts });
    const adapter = adapterFor(provider);
    const { request, callbackUrl } = await signIn(adapter, 'alice');
    await provider.close();
    const completion = adapter.completeAuthorization({ callbackUrl, expectedState: 'state-123', codeVerifier: request.codeVerifier, nonce: request.nonce });
    await expect(completion).rejects.toMatchObject({ reason: 'unreachable' });
  });

  it('refuses an http issuer unless allowed for tests', () => {
    const options = { issuer: 'http://127.0.0.1:1', clientId: 'c', clientSecret: 's', redirectUri, timeoutMs: 1_000 };
    expect(() => new OpenIdClientIdentityProvider(options)).toThrow(/https/);
  });
});
