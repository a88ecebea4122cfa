import { describe } from 'vitest';
import { PostgresEmailOutbox } from '../../adapters/postgres/postgres-email-outbox';
import { PostgresOneTimeTokenStore } from '../../adapters/postgres/postgres-one-time-token-store';
import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresSessionStore } from '../../adapters/postgres/postgres-session-store';
import { PostgresUserRepository } from '../../adapters/postgres/postgres-user-repository';
import type { Database } from '../../adapters/postgres/database';
import type { EmailMessage } from '../../core/email/mailer.port';
import type { FakeClock } from '../support/fake-clock';
import { describeEmailOutboxContract } from './email-outbox.contract';
import { describeOneTimeTokenStoreContract } from './one-time-token-store.contract';
import { describeOrganizationRepositoryContract } from './organization-repository.contract';
import { describeSessionStoreContract } from './session-store.contract';
import { describeUnitOfWorkContract } from './unit-of-work.contract';
import { describeUserRepositoryContract } from './user-repository.contract';
import { describeMfaStoresContract } from './mfa-stores.contract';
import { PostgresMfaRepository } from '../../adapters/postgres/postgres-mfa-repository';
import { PostgresMfaChallengeStore } from '../../adapters/postgres/postgres-mfa-challenge-store';

/**
 * Runs every accounts contract suite on a PostgreSQL-speaking database (server or PGlite), and
 * the UnitOfWork contract over the same repositories.
 * `database()` is read lazily: the caller opens it in its own beforeAll.
 */
export function describeAccountsOnPostgres(name: string, database: () => Database, clock: FakeClock): void {
  // Every test (and every fast-check run) starts from empty tables of the caller's own database.
  const setup = async () => {
    // DELETE, not TRUNCATE: on tables this small it is ~100x faster, and the model test calls
    // setup once per run. The foreign keys cascade from organization to every accounts table.
    await database().run('delete from organization', []);
    await database().run('delete from email_outbox', []);
    return postgresAccounts(database(), clock);
  };
  describe(`accounts contracts: ${name}`, () => {
    describeOrganizationRepositoryContract(name, setup);
    describeUserRepositoryContract(name, setup);
    describeSessionStoreContract(name, setup);
    describeOneTimeTokenStoreContract(name, setup);
    describeEmailOutboxContract(name, setup);
    describeUnitOfWorkContract(name, setup);
    describeMfaStoresContract(name, setup);
  });
}

function postgresAccounts(database: Database, clock: FakeClock) {
  return {
    organizations: new PostgresOrganizationRepository(database),
    users: new PostgresUserRepository(database),
    sessions: new PostgresSessionStore(database),
    tokens: new PostgresOneTimeTokenStore(database),
    mfa: new PostgresMfaRepository(database),
    challenges: new PostgresMfaChallengeStore(database),
    outbox: new PostgresEmailOutbox(database),
    unitOfWork: database,
    async deleteOrganization(id: number) {
      await database.db.deleteFrom('organization').where('id', '=', id).execute();
    },
    async pendingEmails(): Promise<EmailMessage[]> {
      // The test's own SQL, its columns named after EmailMessage's fields: no row type to keep.
      const rows = await database.select<Omit<EmailMessage, 'tag'> & { tag: string | null }>(
        `select recipient as "to", subject, text_body as "text", html_body as "html", idempotency_key as "idempotencyKey", tag
           from email_outbox where status = 'pending' order by id`,
        [],
      );
      return rows.map(({ tag, ...message }) => (tag === null ? message : { ...message, tag }));
    },
    clock,
    async tokenTimes(tokenHash: string) {
      const [row] = await database.select<{ created_at: string; used_at: string | null }>(
        'select created_at, used_at from one_time_token where token_hash = $1',
        [tokenHash],
      );
      if (!row) throw new Error('no such token');
      return { createdAt: new Date(row.created_at), usedAt: row.used_at === null ? null : new Date(row.used_at) };
    },
    async enqueuedAt() {
      const rows = await database.select<{ created_at: string }>('select created_at from email_outbox order by id', []);
      return rows.map((row) => new Date(row.created_at));
    },
    teardown: async () => undefined,
  };
}
