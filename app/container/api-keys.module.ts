import { ContainerModule } from 'inversify';
import { TOKENS } from './tokens';
import { apiKeyRoutes } from '../http/routes/api-keys.routes';
import { authenticateRequest } from '../http/request-credentials';
import { PostgresApiKeyRepository } from '../../adapters/postgres/postgres-api-key-repository';
import type { ApiKeysDeps } from '../../core/api-keys/api-keys-deps';
import { ApiKeyActivity } from '../../core/api-keys/api-key-activity';
import { AuthenticateApiKey } from '../../core/api-keys/authenticate-api-key.use-case';
import { CreateApiKey } from '../../core/api-keys/create-api-key.use-case';
import { ListApiKeys } from '../../core/api-keys/list-api-keys.use-case';
import { RevokeApiKey } from '../../core/api-keys/revoke-api-key.use-case';

/**
 * Organization API keys: their repository, the use cases, the routes, and the router's one
 * authentication, which takes a bearer key or the session cookie (the accounts module's).
 */
export function apiKeysModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.ApiKeyRepository).toDynamicValue((ctx) => new PostgresApiKeyRepository(ctx.get(TOKENS.Database)));
    bind(TOKENS.ApiKeyActivity).toDynamicValue((ctx) => new ApiKeyActivity({ apiKeys: ctx.get(TOKENS.ApiKeyRepository), logger: ctx.get(TOKENS.Logger) }));

    bind(TOKENS.ApiKeyUseCases).toDynamicValue((ctx) => {
      const deps: ApiKeysDeps = {
        apiKeys: ctx.get(TOKENS.ApiKeyRepository),
        tokenGenerator: ctx.get(TOKENS.TokenGenerator),
        tokenHasher: ctx.get(TOKENS.TokenHasher),
        clock: ctx.get(TOKENS.Clock),
        keyActivity: ctx.get(TOKENS.ApiKeyActivity),
        audit: ctx.get(TOKENS.AuditLog),
        unitOfWork: ctx.get(TOKENS.UnitOfWork),
      };
      return {
        authenticateApiKey: new AuthenticateApiKey(deps),
        createApiKey: new CreateApiKey(deps),
        listApiKeys: new ListApiKeys(deps),
        revokeApiKey: new RevokeApiKey(deps),
      };
    });

    bind(TOKENS.Authenticate).toDynamicValue((ctx) => {
      const { authenticateApiKey } = ctx.get(TOKENS.ApiKeyUseCases);
      const cookie = ctx.get(TOKENS.SessionCookie);
      return authenticateRequest({
        session: ctx.get(TOKENS.AuthenticateSession),
        hasSessionCookie: (koa) => cookie.read(koa) !== undefined,
        apiKey: (key) => authenticateApiKey.execute(key),
      });
    });
    bind(TOKENS.Routes).toDynamicValue((ctx) => apiKeyRoutes(ctx.get(TOKENS.ApiKeyUseCases), { baseApiUrl: ctx.get(TOKENS.Config).baseApiUrl }));
  });
}
