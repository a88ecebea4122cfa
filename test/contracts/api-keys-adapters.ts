import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresUserRepository } from '../../adapters/postgres/postgres-user-repository';
import { PostgresApiKeyRepository } from '../../adapters/postgres/postgres-api-key-repository';
import type { Database } from '../../adapters/postgres/database';
import type { ApiKeyRepositoryHarness } from './api-key-repository.contract';

/** The API-key contract's harness on a migrated PostgreSQL (server or PGlite), emptied first. */
export async function postgresApiKeyRepository(database: Database): Promise<ApiKeyRepositoryHarness> {
  await database.run('truncate table organization, app_user, api_key restart identity cascade', []);
  return {
    organizations: new PostgresOrganizationRepository(database),
    users: new PostgresUserRepository(database),
    apiKeys: new PostgresApiKeyRepository(database),
    teardown: async () => undefined,
  };
}
