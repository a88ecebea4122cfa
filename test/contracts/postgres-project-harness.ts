import type { Database } from '../../adapters/postgres/database';
import { PostgresProjectRepository } from '../../adapters/postgres/postgres-project-repository';
import { insertOrganization, insertUser } from '../support/sessions';
import type { ProjectRepositoryHarness } from './project-repository.contract';

/** The contract harness over a migrated database; `close` is the caller's (drop or close it). */
export function postgresProjectHarness(database: Database, close: () => Promise<void>): ProjectRepositoryHarness {
  return {
    repository: new PostgresProjectRepository(database),
    async newTenant() {
      const organizationId = await insertOrganization(database);
      return { organizationId, userId: await insertUser(database, organizationId) };
    },
    newUser: (organizationId) => insertUser(database, organizationId),
    async deleteOrganization(organizationId) {
      await database.db.deleteFrom('organization').where('id', '=', organizationId).execute();
    },
    async deleteUser(userId) {
      await database.db.deleteFrom('app_user').where('id', '=', userId).execute();
    },
    close,
  };
}
