import type { Database } from '../../adapters/postgres/database';
import { PostgresApiKeyRepository } from '../../adapters/postgres/postgres-api-key-repository';
import { PostgresInvitationRepository } from '../../adapters/postgres/postgres-invitation-repository';
import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresUserRepository } from '../../adapters/postgres/postgres-user-repository';
import type { InvitationRepositoryHarness } from './invitation-repository.contract';

/** Every test starts from empty tables of the file's own database. */
export async function postgresOrganizationsHarness(database: Database): Promise<InvitationRepositoryHarness> {
  await database.run('truncate table organization, app_user, session, invitation, api_key restart identity cascade', []);
  return {
    invitations: new PostgresInvitationRepository(database),
    organizations: new PostgresOrganizationRepository(database),
    users: new PostgresUserRepository(database),
    apiKeys: new PostgresApiKeyRepository(database),
    unitOfWork: database,
    async deleteOrganization(id: number) {
      await database.db.deleteFrom('organization').where('id', '=', id).execute();
    },
    teardown: async () => undefined,
  };
}
