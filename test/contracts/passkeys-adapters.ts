import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresUserRepository } from '../../adapters/postgres/postgres-user-repository';
import { PostgresPasskeyRepository } from '../../adapters/postgres/postgres-passkey-repository';
import { PostgresPasskeyChallengeStore } from '../../adapters/postgres/postgres-passkey-challenge-store';
import type { Database } from '../../adapters/postgres/database';
import type { PasskeyStoresHarness } from './passkey-stores.contract';

/** The passkey contracts' harness on a migrated PostgreSQL (server or PGlite), emptied first. */
export async function postgresPasskeyStores(database: Database): Promise<PasskeyStoresHarness> {
  await database.run('truncate table organization, app_user, passkey, passkey_challenge restart identity cascade', []);
  return {
    organizations: new PostgresOrganizationRepository(database),
    users: new PostgresUserRepository(database),
    passkeys: new PostgresPasskeyRepository(database),
    challenges: new PostgresPasskeyChallengeStore(database),
    teardown: async () => undefined,
  };
}
