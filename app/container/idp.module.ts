import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box';
import { ContainerModule, type ResolutionContext } from 'inversify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config';
import { TOKENS } from './tokens';
import { IdpBindingCookie } from '../http/idp-binding-cookie';
import { idpRoutes } from '../http/routes/idp.routes';
import type { SessionCookie } from '../http/session-cookie';
import { JoseStateSigner } from '../../adapters/crypto/jose-state-signer';
import { OpenIdClientIdentityProvider } from '../../adapters/oidc/openid-client-identity-provider';
import type { Database } from '../../adapters/postgres/database';
import { PostgresIdentityLinkRepository } from '../../adapters/postgres/postgres-identity-link-repository';
import { PostgresIdpLoginFlowStore } from '../../adapters/postgres/postgres-idp-login-flow-store';
import type { AccountsPorts, AccountsSettings } from '../../core/accounts/accounts-ports';
import { CompleteIdpLogin } from '../../core/accounts/complete-idp-login.use-case';
import type { IdpLoginPorts } from '../../core/accounts/idp-login';
import { IdpPendingInvitations } from '../../core/accounts/idp-pending-invitations';
import type { SessionIssuer } from '../../core/accounts/session-issuer';
import { StartIdpLogin } from '../../core/accounts/start-idp-login.use-case';
import type { OrganizationsPorts } from '../../core/organizations/organizations-ports';

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

function idpPorts(ctx: ResolutionContext): IdpLoginPorts {
  const accounts = ctx.get<AccountsPorts>(TOKENS.AccountsPorts);
  const { users, organizations, sessions, tokenGenerator, tokenHasher, clock, unitOfWork } = accounts;
  return {
    users, organizations, sessions, tokenGenerator, tokenHasher, clock, unitOfWork,
    provider: ctx.get(TOKENS.IdentityProvider),
    stateSigner: ctx.get(TOKENS.StateSigner),
    flows: ctx.get(TOKENS.IdpLoginFlowStore),
    links: ctx.get(TOKENS.IdentityLinkRepository),
    secretBox: new AesGcmSecretBox('tenantkit:idp-flow'),
    // B2B: an invited email gets in through the organizations context's own redemption.
    invitations: new IdpPendingInvitations(ctx.get<OrganizationsPorts>(TOKENS.OrganizationsPorts)),
  };
}

/** Sign-in through an OpenID Connect provider. Without APP_IDP_CLIENT_ID/SECRET it adds no routes (404). */
export function idpModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const config = (ctx: ResolutionContext) => ctx.get<AppConfig>(TOKENS.Config);
    const database = (ctx: ResolutionContext) => ctx.get<Database>(TOKENS.Database);
    bind(TOKENS.IdentityLinkRepository).toDynamicValue((ctx) => new PostgresIdentityLinkRepository(database(ctx)));
    bind(TOKENS.IdpLoginFlowStore).toDynamicValue((ctx) => new PostgresIdpLoginFlowStore(database(ctx)));
    bind(TOKENS.StateSigner).toDynamicValue((ctx) => new JoseStateSigner(config(ctx).jwtSecretKey));
    // Discovery is lazy (first sign-in), so startup never waits for the provider.
    bind(TOKENS.IdentityProvider).toDynamicValue((ctx) => identityProvider(config(ctx)));
    bind(TOKENS.IdpBindingCookie).toDynamicValue((ctx) => new IdpBindingCookie(config(ctx)));
    bind(TOKENS.Routes).toDynamicValue((ctx) => {
      const settings = config(ctx);
      if (!settings.idp) return [];
      const ports = idpPorts(ctx);
      const accounts = ctx.get<AccountsSettings>(TOKENS.AccountsSettings);
      return idpRoutes(
        {
          start: new StartIdpLogin(ports, ctx.get<Logger>(TOKENS.Logger)),
          complete: new CompleteIdpLogin(ports, accounts, ctx.get<SessionIssuer>(TOKENS.SessionIssuer)),
        },
        {
          bindingCookie: ctx.get(TOKENS.IdpBindingCookie),
          sessionCookie: ctx.get<SessionCookie>(TOKENS.SessionCookie),
          baseWebUrl: settings.baseWebUrl,
          callbackUrl: `${settings.baseApiUrl}${IDP_CALLBACK_PATH}`,
        },
      );
    });
  });
}
