import {
  IdentityProviderError,
  type AuthorizationRequest,
  type IdentityProvider,
  type VerifiedIdentity,
} from '../../core/accounts/identity-provider.port';

type CompletionInput = Parameters<IdentityProvider['completeAuthorization']>[0];

/**
 * An IdentityProvider for use-case tests. Like the real adapter it refuses a callback whose
 * state is not the expected one, and a verifier or nonce that was not issued with that state;
 * then it returns `identity`, or throws `failure` when one is set.
 */
export class FakeIdentityProvider implements IdentityProvider {
  identity: VerifiedIdentity;
  /** Thrown by createAuthorizationRequest (discovery failed). */
  startFailure: unknown = null;
  /** Thrown by completeAuthorization once the state, verifier and nonce checks pass. */
  failure: unknown = null;
  readonly issued: Array<AuthorizationRequest & { state: string }> = [];
  readonly completions: CompletionInput[] = [];

  constructor(identity: Partial<VerifiedIdentity> = {}) {
    this.identity = anIdentity(identity);
  }

  async createAuthorizationRequest(state: string): Promise<AuthorizationRequest> {
    if (this.startFailure) throw this.startFailure;
    const n = this.issued.length + 1;
    const request = { url: `https://idp.example.com/authorize?state=${encodeURIComponent(state)}`, codeVerifier: `verifier-${n}`.padEnd(43, 'v'), nonce: `nonce-${n}` };
    this.issued.push({ ...request, state });
    return request;
  }

  async completeAuthorization(input: CompletionInput): Promise<VerifiedIdentity> {
    this.completions.push(input);
    if (input.callbackUrl.searchParams.get('state') !== input.expectedState) {
      throw new IdentityProviderError('unexpected "state" response parameter value', 'rejected');
    }
    const request = this.issued.find((candidate) => candidate.state === input.expectedState);
    if (!request || request.codeVerifier !== input.codeVerifier || request.nonce !== input.nonce) {
      throw new IdentityProviderError('invalid_grant', 'rejected', { oauthError: 'invalid_grant' });
    }
    if (this.failure) throw this.failure;
    return { ...this.identity };
  }
}

export function anIdentity(overrides: Partial<VerifiedIdentity> = {}): VerifiedIdentity {
  return {
    issuer: 'https://idp.example.com',
    subject: 'subject-1',
    email: 'ada@example.com',
    emailVerified: true,
    givenName: 'Ada',
    familyName: 'Lovelace',
    ...overrides,
  };
}
