import { ContainerModule } from 'inversify';
import type { AppConfig } from '../config/config';
import { TOKENS } from './tokens';
import { IdpBindingCookie } from '../http/idp-binding-cookie';
import { idpRoutes } from '../http/routes/idp.routes';
import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box';
import { JoseStateSigner } from '../../adapters/crypto/jose-state-signer';
import { OpenIdClientIdentityProvider } from '../../adapters/oidc/openid-client-identity-provider';
import { PostgresIdentityLinkRepository } from '../../adapters/postgres/postgres-identity-link-repository';
import { PostgresIdpLoginFlowStore } from '../../adapters/postgres/postgres-idp-login-flow-store';
import { CompleteIdpLogin } from '../../core/accounts/complete-idp-login.use-case';
import type { IdpLoginDeps } from '../../core/accounts/accounts-deps';
import { IdpPendingInvitations } from '../../core/organizations/idp-pending-invitations';
import { StartIdpLogin } from '../../core/accounts/start-idp-login.use-case';

export const IDP_CALLBACK_PATH = '/auth/oauth/idp/callback';
const IDP_TIMEOUT_MS = 10_000;

/** Plain http is for a provider on this machine, in dev only (the e2e tests' provider). */
function isLocalDevIssuer(config: AppConfig, issuer: string): boolean {
  const { protocol, hostname } = new URL(issuer);
  return config.environment === 'dev' && protocol === 'http:' && ['127.0.0.1', 'localhost'].includes(hostname);
}

function identityProvider(config: AppConfig): OpenIdClientIdentityProvider {
  if (!config.idp) throw new Error('The identity provider is not configured');
  return new OpenIdClientIdentityProvider({
    ...config.idp,
    redirectUri: `${config.baseApiUrl}${IDP_CALLBACK_PATH}`,
    timeoutMs: IDP_TIMEOUT_MS,
    allowInsecureHttpForTests: isLocalDevIssuer(config, config.idp.issuer),
  });
}

/** Sign-in through an OpenID Connect provider. Without APP_IDP_CLIENT_ID/SECRET its routes answer 404. */
export function idpModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.IdentityLinkRepository).toDynamicValue((ctx) => new PostgresIdentityLinkRepository(ctx.get(TOKENS.Database)));
    bind(TOKENS.IdpLoginFlowStore).toDynamicValue((ctx) => new PostgresIdpLoginFlowStore(ctx.get(TOKENS.Database)));
    bind(TOKENS.StateSigner).toDynamicValue((ctx) => new JoseStateSigner(ctx.get(TOKENS.Config).jwtSecretKey));
    // Discovery is lazy (first sign-in), so startup never waits for the provider.
    bind(TOKENS.IdentityProvider).toDynamicValue((ctx) => identityProvider(ctx.get(TOKENS.Config)));
    bind(TOKENS.IdpBindingCookie).toDynamicValue((ctx) => new IdpBindingCookie(ctx.get(TOKENS.Config)));

    bind(TOKENS.IdpUseCases).toDynamicValue((ctx) => {
      const deps: IdpLoginDeps = {
        users: ctx.get(TOKENS.UserRepository),
        organizations: ctx.get(TOKENS.OrganizationRepository),
        sessions: ctx.get(TOKENS.SessionStore),
        tokenGenerator: ctx.get(TOKENS.TokenGenerator),
        tokenHasher: ctx.get(TOKENS.TokenHasher),
        clock: ctx.get(TOKENS.Clock),
        unitOfWork: ctx.get(TOKENS.UnitOfWork),
        audit: ctx.get(TOKENS.AuditLog),
        provider: ctx.get(TOKENS.IdentityProvider),
        stateSigner: ctx.get(TOKENS.StateSigner),
        flows: ctx.get(TOKENS.IdpLoginFlowStore),
        links: ctx.get(TOKENS.IdentityLinkRepository),
        secretBox: new AesGcmSecretBox('tenantkit:idp-flow'),
        // B2B: an invited email gets in through the organizations context's own redemption.
        invitations: new IdpPendingInvitations({
          invitations: ctx.get(TOKENS.InvitationRepository),
          users: ctx.get(TOKENS.UserRepository),
          apiKeys: ctx.get(TOKENS.ApiKeyRepository),
          organizations: ctx.get(TOKENS.OrganizationRepository),
          clock: ctx.get(TOKENS.Clock),
          unitOfWork: ctx.get(TOKENS.UnitOfWork),
          audit: ctx.get(TOKENS.AuditLog),
        }),
        settings: ctx.get(TOKENS.AccountsSettings),
        signInCompletion: ctx.get(TOKENS.SignInCompletion),
        failedSignIns: ctx.get(TOKENS.FailedSignIns),
        logger: ctx.get(TOKENS.Logger),
      };
      return { start: new StartIdpLogin(deps), complete: new CompleteIdpLogin(deps) };
    });

    bind(TOKENS.Routes).toDynamicValue((ctx) => {
      const config = ctx.get(TOKENS.Config);
      // Without a provider the routes stay described and answer 404; the use cases are never built.
      return idpRoutes(config.idp ? ctx.get(TOKENS.IdpUseCases) : undefined, {
        bindingCookie: ctx.get(TOKENS.IdpBindingCookie),
        sessionCookie: ctx.get(TOKENS.SessionCookie),
        challengeCookie: ctx.get(TOKENS.MfaChallengeCookie),
        baseWebUrl: config.baseWebUrl,
        callbackUrl: `${config.baseApiUrl}${IDP_CALLBACK_PATH}`,
      });
    });
  });
}
