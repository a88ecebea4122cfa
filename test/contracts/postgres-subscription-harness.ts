import type { Database } from '../../adapters/postgres/database';
import { PostgresSubscriptionRepository } from '../../adapters/postgres/postgres-subscription-repository';
import { insertOrganization } from '../support/sessions';
import type { SubscriptionRepositoryHarness } from './subscription-repository.contract';

/** The contract harness over a migrated database; `close` is the caller's (drop or close it). */
export function postgresSubscriptionHarness(database: Database, close: () => Promise<void>): SubscriptionRepositoryHarness {
  return {
    repository: new PostgresSubscriptionRepository(database),
    newOrganization: () => insertOrganization(database),
    async deleteOrganization(organizationId) {
      await database.db.deleteFrom('organization').where('id', '=', organizationId).execute();
    },
    close,
  };
}
