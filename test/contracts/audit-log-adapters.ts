import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresUserRepository } from '../../adapters/postgres/postgres-user-repository';
import { PostgresAuditLog } from '../../adapters/postgres/postgres-audit-log';
import type { Database } from '../../adapters/postgres/database';
import type { FakeClock } from '../support/fake-clock';
import type { AuditLogHarness } from './audit-log.contract';

/** The audit log contract's harness on a migrated PostgreSQL (server or PGlite) whose clock is `clock`, emptied first. */
export async function postgresAuditLog(database: Database, clock: FakeClock): Promise<AuditLogHarness> {
  await database.run('truncate table organization, app_user, audit_event restart identity cascade', []);
  const log = new PostgresAuditLog(database);
  return {
    organizations: new PostgresOrganizationRepository(database),
    users: new PostgresUserRepository(database),
    audit: log,
    events: log,
    unitOfWork: database,
    clock,
    deleteOrganization: async (id) => void (await database.run('delete from organization where id = $1', [id])),
    teardown: async () => undefined,
  };
}
