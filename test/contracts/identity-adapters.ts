import { PostgresIdentityLinkRepository } from '../../adapters/postgres/postgres-identity-link-repository';
import { PostgresIdpLoginFlowStore } from '../../adapters/postgres/postgres-idp-login-flow-store';
import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresUserRepository } from '../../adapters/postgres/postgres-user-repository';
import type { Database } from '../../adapters/postgres/database';

/** The identity contracts' harness on a migrated PostgreSQL (server or PGlite), emptied first. */
export async function postgresIdentity(database: Database) {
  await database.run('truncate table organization, app_user, identity_link, idp_login_flow restart identity cascade', []);
  return {
    organizations: new PostgresOrganizationRepository(database),
    users: new PostgresUserRepository(database),
    links: new PostgresIdentityLinkRepository(database),
    flows: new PostgresIdpLoginFlowStore(database),
    unitOfWork: database,
    teardown: async () => undefined,
  };
}
