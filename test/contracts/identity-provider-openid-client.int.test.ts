import { afterAll, beforeAll, describe, expect } from 'vitest';
import { OpenIdClientIdentityProvider } from '../../adapters/oidc/openid-client-identity-provider';
import { startOidcTestProvider, type OidcTestProvider } from '../fakes/oidc-test-provider';
import { TestBrowser } from '../support/browser';
import { describeIdentityProviderContract } from './identity-provider.contract';

// Never visited: the browser stops when the provider redirects here, as the app's callback would.
const redirectUri = 'http://127.0.0.1:9/auth/oauth/idp/callback';

// The adapter with the real openid-client, against a real OpenID provider (oidc-provider) on 127.0.0.1.
describe('OpenIdClientIdentityProvider against oidc-provider', () => {
  let oidc: OidcTestProvider;
  beforeAll(async () => {
    oidc = await startOidcTestProvider({ redirectUri });
  });
  afterAll(() => oidc?.close());

  describeIdentityProviderContract('openid-client', async () => ({
    provider: new OpenIdClientIdentityProvider({
      issuer: oidc.issuer,
      clientId: oidc.clientId,
      clientSecret: oidc.clientSecret,
      redirectUri,
      timeoutMs: 5_000,
      allowInsecureHttpForTests: true,
    }),
    issuer: oidc.issuer,
    async signIn(request, account) {
      oidc.setAccount(account.subject, {
        ...(account.email === undefined ? {} : { email: account.email }),
        ...(account.emailVerified === undefined ? {} : { email_verified: account.emailVerified }),
        ...(account.givenName === undefined ? {} : { given_name: account.givenName }),
        ...(account.familyName === undefined ? {} : { family_name: account.familyName }),
      });
      // Login page, consent page, then the redirect back to the app.
      const browser = new TestBrowser();
      const loginPage = await browser.get(request.url, { stopAt: redirectUri });
      const consentPage = await browser.submitForm(loginPage, { login: account.subject }, { stopAt: redirectUri });
      const back = await browser.submitForm(consentPage, {}, { stopAt: redirectUri });
      expect(back.stopped, `expected a redirect to the app, got ${back.status}: ${back.body}`).toBe(true);
      return back.url;
    },
    async cancel(request) {
      const browser = new TestBrowser();
      const loginPage = await browser.get(request.url, { stopAt: redirectUri });
      const back = await browser.followLink(loginPage, 'Cancel', { stopAt: redirectUri });
      expect(back.stopped).toBe(true);
      return back.url;
    },
    teardown: async () => undefined,
  }));
});
