import * as oidc from 'openid-client';
import {
  IdentityProviderError,
  type AuthorizationRequest,
  type IdentityProvider,
  type VerifiedIdentity,
} from '../../core/accounts/identity-provider.port';

export interface OpenIdClientIdentityProviderOptions {
  /** Issuer identifier, e.g. `https://accounts.google.com`; must equal the discovered `issuer`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registered with the provider byte for byte, e.g. `${APP_BASE_API_URL}/auth/oauth/idp/callback`. */
  redirectUri: string;
  /** Space-separated. */
  scopes?: string;
  /** Bounds each request to the provider: discovery, token, JWKS, userinfo. */
  timeoutMs: number;
  /** Permits an http:// issuer. Only the test harness sets it. */
  allowInsecureHttpForTests?: boolean;
}

/** The IdentityProvider port over openid-client v6 (authorization code flow, PKCE S256, nonce). */
export class OpenIdClientIdentityProvider implements IdentityProvider {
  private readonly issuer: URL;
  private readonly scopes: string;
  /** In-flight or completed discovery; reset on failure so a provider that comes back is found. */
  private configuration: Promise<oidc.Configuration> | null = null;

  constructor(private readonly options: OpenIdClientIdentityProviderOptions) {
    this.issuer = new URL(options.issuer);
    if (this.issuer.protocol !== 'https:' && !options.allowInsecureHttpForTests) {
      throw new Error(`The identity provider issuer must use https: ${options.issuer}`);
    }
    // openid-client sends the callback URL minus its query as redirect_uri, so a query here could never match.
    if (new URL(options.redirectUri).search !== '') throw new Error('The redirect URI must not have a query string');
    if (!(options.timeoutMs > 0)) throw new Error('timeoutMs must be positive');
    this.scopes = options.scopes ?? 'openid email profile';
  }

  async createAuthorizationRequest(state: string): Promise<AuthorizationRequest> {
    const configuration = await this.discover();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const nonce = oidc.randomNonce();
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.options.redirectUri,
      scope: this.scopes,
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
    });
    return { url: url.href, codeVerifier, nonce };
  }

  async completeAuthorization(input: {
    callbackUrl: URL;
    expectedState: string;
    codeVerifier: string;
    nonce: string;
  }): Promise<VerifiedIdentity> {
    const configuration = await this.discover();
    // Only the callback's query is read: the redirect_uri sent to the token endpoint is the
    // configured one, so a proxy that rewrites the scheme or host cannot break the exchange.
    const currentUrl = new URL(this.options.redirectUri);
    currentUrl.search = input.callbackUrl.search;
    try {
      const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
        expectedState: input.expectedState,
        expectedNonce: input.nonce,
        pkceCodeVerifier: input.codeVerifier,
        idTokenExpected: true,
      });
      const idToken = tokens.claims();
      if (!idToken) throw new IdentityProviderError('The provider returned no ID token', 'rejected');
      const userInfo =
        typeof idToken.email !== 'string' && configuration.serverMetadata().userinfo_endpoint
          ? await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub)
          : null;
      return toVerifiedIdentity(idToken, userInfo);
    } catch (error) {
      throw toIdentityProviderError(error, 'Authorization code exchange');
    }
  }

  private discover(): Promise<oidc.Configuration> {
    const execute = [oidc.enableNonRepudiationChecks]; // also verify the ID token signature against the JWKS
    if (this.options.allowInsecureHttpForTests) execute.push(oidc.allowInsecureRequests);
    this.configuration ??= oidc
      .discovery(this.issuer, this.options.clientId, this.options.clientSecret, oidc.ClientSecretBasic(), {
        execute,
        timeout: this.options.timeoutMs / 1000,
      })
      .catch((error: unknown) => {
        this.configuration = null;
        throw toIdentityProviderError(error, 'Discovery');
      });
    return this.configuration;
  }
}

type Claims = Readonly<Record<string, unknown>>;

/** The email and its verification flag always come from the same document: never mix sources. */
function toVerifiedIdentity(idToken: oidc.IDToken, userInfo: oidc.UserInfoResponse | null): VerifiedIdentity {
  const emailSource: Claims = typeof idToken.email === 'string' || !userInfo ? idToken : userInfo;
  const email = normalizedEmail(emailSource.email);
  return {
    issuer: idToken.iss,
    subject: idToken.sub,
    email,
    // Strictly asserted: absent, false, "false" or any other value means unverified. Some
    // providers (old Google) send the string "true".
    emailVerified: email !== null && (emailSource.email_verified === true || emailSource.email_verified === 'true'),
    givenName: text(idToken.given_name) ?? text(userInfo?.given_name),
    familyName: text(idToken.family_name) ?? text(userInfo?.family_name),
  };
}

function normalizedEmail(value: unknown): string | null {
  const email = text(value);
  return email === null ? null : email.toLowerCase();
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Expected failures become IdentityProviderError; anything else is a bug and stays as thrown. */
function toIdentityProviderError(error: unknown, step: string): unknown {
  if (error instanceof IdentityProviderError) return error;
  if (error instanceof oidc.AuthorizationResponseError) {
    const description = error.error_description ? `: ${error.error_description}` : '';
    return new IdentityProviderError(`The provider refused the authorization: ${error.error}${description}`, 'rejected', {
      oauthError: error.error,
      cause: error,
    });
  }
  if (error instanceof oidc.ResponseBodyError) {
    return new IdentityProviderError(
      `${step} failed: the provider answered ${error.error} (HTTP ${error.status})`,
      error.status >= 500 ? 'unreachable' : 'rejected',
      { oauthError: error.error, cause: error },
    );
  }
  if (isUnreachable(error)) {
    return new IdentityProviderError(`${step} failed: the provider is unreachable`, 'unreachable', { cause: error });
  }
  if (error instanceof oidc.ClientError || error instanceof oidc.WWWAuthenticateChallengeError) {
    // openid-client wraps the precise check that failed (e.g. the ID token "nonce" claim) as the cause.
    const detail = error.cause instanceof Error ? error.cause.message : error.message;
    return new IdentityProviderError(`${step} failed: ${detail}`, 'rejected', { cause: error });
  }
  return error;
}

function isUnreachable(error: unknown): boolean {
  // undici reports refused/reset connections and DNS failures as TypeError('fetch failed').
  if (error instanceof TypeError) return error.message === 'fetch failed';
  if (!(error instanceof oidc.ClientError)) return false;
  if (error.code === 'OAUTH_TIMEOUT' || error.code === 'OAUTH_ABORT') return true;
  return error.cause instanceof Response && error.cause.status >= 500;
}
