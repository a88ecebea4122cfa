import { FakeIdentityProvider } from '../fakes/fake-identity-provider';
import { describeIdentityProviderContract } from './identity-provider.contract';

const stateOf = (url: string) => new URL(url).searchParams.get('state') ?? '';

/** The browser's way back to the app: only the query matters to the provider port. */
function callback(query: Record<string, string>): URL {
  const url = new URL('https://api.example.test/auth/oauth/idp/callback');
  url.search = new URLSearchParams(query).toString();
  return url;
}

// The fake the core tests run on must behave as the real adapter does against a real provider.
describeIdentityProviderContract('FakeIdentityProvider', async () => {
  const provider = new FakeIdentityProvider();
  return {
    provider,
    issuer: FakeIdentityProvider.ISSUER,
    signIn: async (request, account) => callback({ code: provider.authorize(stateOf(request.url), account), state: stateOf(request.url) }),
    cancel: async (request) => callback({ error: 'access_denied', state: stateOf(request.url) }),
    teardown: async () => undefined,
  };
});
