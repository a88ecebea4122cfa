import type { Database } from '../../adapters/postgres/database';
import { PostgresProjectRepository } from '../../adapters/postgres/postgres-project-repository';
import type { ProjectRepositoryHarness } from './project-repository.contract';
import { postgresTenants } from './tenants';

/** The contract harness over a migrated database; `close` is the caller's (drop or close it). */
export function postgresProjectHarness(database: Database, close: () => Promise<void>): ProjectRepositoryHarness {
  return { repository: new PostgresProjectRepository(database), ...postgresTenants(database), close };
}
