import { randomUUID } from 'node:crypto';
import type { Database } from '../../adapters/postgres/database';
import { PostgresProjectRepository } from '../../adapters/postgres/postgres-project-repository';
import type { RoleName } from '../../core/accounts/role';
import type { ProjectRepositoryHarness } from './project-repository.contract';

/** Organization and user rows straight in SQL: the project tables need them for their foreign keys. */
export async function insertOrganization(database: Database, name = 'Acme'): Promise<number> {
  const [row] = (await database.db('organization').insert({ name }).returning('id')) as Array<{ id: number }>;
  return row!.id;
}

export async function insertUser(database: Database, organizationId: number, role: RoleName = 'member'): Promise<number> {
  const [row] = (await database
    .db('app_user')
    .insert({ organization_id: organizationId, email: `${randomUUID()}@example.test`, role, email_verified_at: database.db.fn.now() })
    .returning('id')) as Array<{ id: number }>;
  return row!.id;
}

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
      await database.db('organization').delete().where({ id: organizationId });
    },
    async deleteUser(userId) {
      await database.db('app_user').delete().where({ id: userId });
    },
    close,
  };
}
