import { createHash, randomBytes } from 'node:crypto';
import {
  IdentityProviderError,
  type AuthorizationRequest,
  type IdentityProvider,
  type VerifiedIdentity,
} from '../../core/accounts/identity-provider.port';

type CompletionInput = Parameters<IdentityProvider['completeAuthorization']>[0];

/** An account as the provider holds it, before the adapter's normalization. */
export interface FakeAccount {
  subject: string;
  email?: string;
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
}

interface IssuedCode {
  state: string;
  identity: VerifiedIdentity;
  spent: boolean;
}

/**
 * An IdentityProvider for use-case tests, held to the same contract as the openid-client adapter
 * (test/contracts/identity-provider.contract.ts): the authorization URL carries the state, the
 * nonce and the S256 challenge; `authorize` stands for the user signing in at the provider and
 * hands out a one-time code bound to that request; completing refuses a foreign state before
 * spending the code, an `error` callback, an unknown or reused code, a wrong verifier and a wrong
 * nonce, as a provider and the adapter's checks do. `failure` replaces the answer of an
 * otherwise valid completion, `startFailure` that of createAuthorizationRequest.
 */
export class FakeIdentityProvider implements IdentityProvider {
  static readonly ISSUER = 'https://idp.example.com';
  /** Who signs in when `authorize` names no account. */
  identity: VerifiedIdentity;
  startFailure: unknown = null;
  failure: unknown = null;
  readonly issued: Array<AuthorizationRequest & { state: string }> = [];
  readonly completions: CompletionInput[] = [];
  private readonly codes = new Map<string, IssuedCode>();

  constructor(identity: Partial<VerifiedIdentity> = {}) {
    this.identity = anIdentity(identity);
  }

  async createAuthorizationRequest(state: string): Promise<AuthorizationRequest> {
    if (this.startFailure) throw this.startFailure;
    const codeVerifier = randomBytes(32).toString('base64url');
    const nonce = randomBytes(16).toString('base64url');
    const url = new URL('/authorize', FakeIdentityProvider.ISSUER);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: 'fake-client',
      scope: 'openid email profile',
      state,
      nonce,
      code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
    }).toString();
    const request = { url: url.href, codeVerifier, nonce };
    this.issued.push({ ...request, state });
    return request;
  }

  /** The user signs in at the provider for the request issued with `state`: returns the one-time code of the redirect back. */
  authorize(state: string, account?: FakeAccount): string {
    if (!this.issued.some((request) => request.state === state)) throw new Error(`no authorization request with state ${state}`);
    const code = randomBytes(16).toString('base64url');
    this.codes.set(code, { state, identity: account ? identityOf(account) : { ...this.identity }, spent: false });
    return code;
  }

  async completeAuthorization(input: CompletionInput): Promise<VerifiedIdentity> {
    this.completions.push(input);
    const query = input.callbackUrl.searchParams;
    if (query.get('state') !== input.expectedState) {
      throw new IdentityProviderError('unexpected "state" response parameter value', 'rejected');
    }
    const error = query.get('error');
    if (error) throw new IdentityProviderError(`The provider refused the authorization: ${error}`, 'rejected', { oauthError: error });
    const code = this.codes.get(query.get('code') ?? '');
    const request = this.issued.find((candidate) => candidate.state === input.expectedState);
    // A code is good for one exchange, whatever its outcome.
    const reused = code?.spent === true;
    if (code) code.spent = true;
    if (!code || reused || code.state !== input.expectedState || !request || request.codeVerifier !== input.codeVerifier) {
      throw new IdentityProviderError('invalid_grant', 'rejected', { oauthError: 'invalid_grant' });
    }
    if (request.nonce !== input.nonce) throw new IdentityProviderError('unexpected ID Token "nonce" claim value', 'rejected');
    if (this.failure) throw this.failure;
    return { ...code.identity };
  }
}

/** What the adapter makes of an account's claims: trimmed, email lower-cased, verified only when asserted. */
function identityOf(account: FakeAccount): VerifiedIdentity {
  const text = (value: string | undefined) => (value?.trim() ? value.trim() : null);
  const email = text(account.email)?.toLowerCase() ?? null;
  return {
    issuer: FakeIdentityProvider.ISSUER,
    subject: account.subject,
    email,
    emailVerified: email !== null && account.emailVerified === true,
    givenName: text(account.givenName),
    familyName: text(account.familyName),
  };
}

export function anIdentity(overrides: Partial<VerifiedIdentity> = {}): VerifiedIdentity {
  return {
    issuer: FakeIdentityProvider.ISSUER,
    subject: 'subject-1',
    email: 'ada@example.com',
    emailVerified: true,
    givenName: 'Ada',
    familyName: 'Lovelace',
    ...overrides,
  };
}
