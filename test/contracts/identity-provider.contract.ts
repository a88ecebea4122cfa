import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AuthorizationRequest, IdentityProvider } from '../../core/accounts/identity-provider.port';

/** An account at the provider, as the provider holds it (before any normalization). */
export interface ProviderAccount {
  subject: string;
  email?: string;
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
}

export interface IdentityProviderHarness {
  provider: IdentityProvider;
  /** The issuer the identities must name. */
  issuer: string;
  /** The user's side: signs in at the provider as `account`; returns the callback URL the browser is sent back to. */
  signIn(request: AuthorizationRequest, account: ProviderAccount): Promise<URL>;
  /** The user's side: cancels at the provider; returns the callback URL. */
  cancel(request: AuthorizationRequest): Promise<URL>;
  teardown(): Promise<void>;
}

const alice: ProviderAccount = { subject: 'alice', email: '  Alice@Example.COM ', emailVerified: true, givenName: 'Alice', familyName: 'Liddell' };
const bob: ProviderAccount = { subject: 'bob', email: 'bob@example.com', emailVerified: false };
const frank: ProviderAccount = { subject: 'frank' };

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

export function describeIdentityProviderContract(name: string, setup: () => Promise<IdentityProviderHarness>): void {
  describe(`IdentityProvider contract: ${name}`, () => {
    let h: IdentityProviderHarness;

    beforeEach(async () => {
      h = await setup();
    });

    afterEach(async () => {
      await h.teardown();
    });

    /** Starts a flow with `state`, signs in as `account`, and returns what completing needs. */
    async function flow(account: ProviderAccount, state = `state-${account.subject}`) {
      const request = await h.provider.createAuthorizationRequest(state);
      const callbackUrl = await h.signIn(request, account);
      return { request, callbackUrl, input: { callbackUrl, expectedState: state, codeVerifier: request.codeVerifier, nonce: request.nonce } };
    }

    it('asks for the code flow with the given state, a fresh nonce and an S256 challenge of a fresh verifier', async () => {
      const first = await h.provider.createAuthorizationRequest('state-abc');
      const second = await h.provider.createAuthorizationRequest('state-abc');

      const query = new URL(first.url).searchParams;
      expect(Object.fromEntries(query)).toMatchObject({
        response_type: 'code',
        state: 'state-abc',
        nonce: first.nonce,
        code_challenge: s256(first.codeVerifier),
        code_challenge_method: 'S256',
      });
      expect(query.get('scope')?.split(' ')).toContain('openid');
      // RFC 7636: 43 to 128 unreserved characters; the verifier itself never leaves the server.
      expect(first.codeVerifier).toMatch(/^[A-Za-z0-9\-._~]{43,128}$/);
      expect(first.url).not.toContain(first.codeVerifier);
      expect(second.nonce).not.toBe(first.nonce);
      expect(second.codeVerifier).not.toBe(first.codeVerifier);
    });

    it('returns the identity the provider asserts: email trimmed and lower-cased, names as given', async () => {
      const { input } = await flow(alice);

      await expect(h.provider.completeAuthorization(input)).resolves.toEqual({
        issuer: h.issuer,
        subject: 'alice',
        email: 'alice@example.com',
        emailVerified: true,
        givenName: 'Alice',
        familyName: 'Liddell',
      });
    });

    it('reports an unverified email as unverified, and no email or names where the provider has none', async () => {
      await expect(h.provider.completeAuthorization((await flow(bob)).input)).resolves.toMatchObject({
        subject: 'bob',
        email: 'bob@example.com',
        emailVerified: false,
      });
      await expect(h.provider.completeAuthorization((await flow(frank)).input)).resolves.toEqual({
        issuer: h.issuer,
        subject: 'frank',
        email: null,
        emailVerified: false,
        givenName: null,
        familyName: null,
      });
    });

    it('refuses a callback whose state is not the expected one, before spending the code', async () => {
      const { input } = await flow(alice);

      await expect(h.provider.completeAuthorization({ ...input, expectedState: 'state-tampered' })).rejects.toMatchObject({
        name: 'IdentityProviderError',
        reason: 'rejected',
        message: expect.stringMatching(/state/),
      });
      await expect(h.provider.completeAuthorization(input)).resolves.toMatchObject({ subject: 'alice' });
    });

    it('refuses a wrong PKCE verifier with invalid_grant', async () => {
      const { input } = await flow(alice);

      await expect(h.provider.completeAuthorization({ ...input, codeVerifier: 'x'.repeat(43) })).rejects.toMatchObject({
        reason: 'rejected',
        oauthError: 'invalid_grant',
      });
    });

    it('refuses an ID token whose nonce is not the one sent', async () => {
      const { input } = await flow(alice);

      await expect(h.provider.completeAuthorization({ ...input, nonce: 'another-nonce' })).rejects.toMatchObject({
        reason: 'rejected',
        message: expect.stringMatching(/nonce/),
      });
    });

    it('refuses a code used twice with invalid_grant', async () => {
      const { input } = await flow(alice);

      await expect(h.provider.completeAuthorization(input)).resolves.toMatchObject({ subject: 'alice' });
      await expect(h.provider.completeAuthorization(input)).rejects.toMatchObject({ reason: 'rejected', oauthError: 'invalid_grant' });
    });

    it('refuses with access_denied when the user cancels at the provider', async () => {
      const request = await h.provider.createAuthorizationRequest('state-cancel');
      const callbackUrl = await h.cancel(request);

      const completion = h.provider.completeAuthorization({ callbackUrl, expectedState: 'state-cancel', codeVerifier: request.codeVerifier, nonce: request.nonce });
      await expect(completion).rejects.toMatchObject({ name: 'IdentityProviderError', reason: 'rejected', oauthError: 'access_denied' });
    });

    it('keeps concurrent flows apart: each code goes with its own request only', async () => {
      const first = await flow(alice, 'state-one');
      const second = await flow(bob, 'state-two');

      await expect(h.provider.completeAuthorization({ ...second.input, codeVerifier: first.request.codeVerifier })).rejects.toMatchObject({
        oauthError: 'invalid_grant',
      });
      const other = await flow(bob, 'state-three');
      await expect(h.provider.completeAuthorization(other.input)).resolves.toMatchObject({ subject: 'bob' });
      await expect(h.provider.completeAuthorization(first.input)).resolves.toMatchObject({ subject: 'alice' });
    });
  });
}
