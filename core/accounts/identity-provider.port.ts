/**
 * The first leg of an OpenID Connect authorization code flow. The caller must keep `codeVerifier`
 * and `nonce` bound to the initiating browser (never in the URL) until the callback, and hand them
 * back to `completeAuthorization`.
 */
export interface AuthorizationRequest {
  /** Where to send the browser: the provider's authorization endpoint with all parameters. */
  url: string;
  /** PKCE secret; only its S256 challenge is in `url`. */
  codeVerifier: string;
  /** Echoed back inside the ID token; ties the token to this request. */
  nonce: string;
}

/**
 * Who the provider says the user is. `(issuer, subject)` is the only stable key: emails change
 * and can be reused. The email is lower-cased and trimmed; it may be linked to a local account
 * only when `emailVerified` is true.
 */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email: string | null;
  /** True only when the provider explicitly asserted `email_verified: true` for this email. */
  emailVerified: boolean;
  givenName: string | null;
  familyName: string | null;
}

/**
 * An external OpenID Connect provider (Google, any OIDC issuer). Each call is independent:
 * the adapter keeps no per-flow state, so callers may run many flows concurrently.
 */
export interface IdentityProvider {
  /** Builds the provider's authorization URL for the code flow with PKCE S256, the given state and a fresh nonce. */
  createAuthorizationRequest(state: string): Promise<AuthorizationRequest>;
  /**
   * Exchanges the code from the callback URL, validates the ID token (issuer, audience, nonce,
   * signature, expiry), returns the identity. Validates that the callback's `state` equals
   * `expectedState` before any exchange. Rejects with IdentityProviderError.
   */
  completeAuthorization(input: {
    callbackUrl: URL;
    expectedState: string;
    codeVerifier: string;
    nonce: string;
  }): Promise<VerifiedIdentity>;
}

/**
 * `unreachable`: network failure, timeout or a 5xx from the provider; the same login may work
 * later. `rejected`: the provider or the validation refused this flow (user cancelled, bad or
 * reused code, state/nonce/PKCE mismatch, invalid token); retrying the same callback cannot help.
 */
export type IdentityProviderFailure = 'unreachable' | 'rejected';

export class IdentityProviderError extends Error {
  override readonly name = 'IdentityProviderError';
  /**
   * The OAuth 2.0 `error` code the provider sent, when it sent one: `access_denied` when the user
   * cancelled, `invalid_grant` for a bad or reused code... Lets callers tell a cancel from a
   * failure without parsing messages.
   */
  readonly oauthError: string | null;

  constructor(
    message: string,
    readonly reason: IdentityProviderFailure,
    options: { oauthError?: string | null; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.oauthError = options.oauthError ?? null;
  }
}
