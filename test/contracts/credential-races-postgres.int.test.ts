import { FailedSignIns } from '../../core/accounts/failed-sign-ins';
import { PostgresAuditLog } from '../../adapters/postgres/postgres-audit-log';
import { afterAll, beforeAll, describe } from 'vitest';
import { NodeTokenGenerator } from '../../adapters/crypto/node-token-generator';
import { Sha256TokenHasher } from '../../adapters/crypto/sha256-token-hasher';
import { PostgresEmailOutbox } from '../../adapters/postgres/postgres-email-outbox';
import { PostgresOneTimeTokenStore } from '../../adapters/postgres/postgres-one-time-token-store';
import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresSessionStore } from '../../adapters/postgres/postgres-session-store';
import { PostgresUserRepository } from '../../adapters/postgres/postgres-user-repository';
import { PostgresMfaChallengeStore } from '../../adapters/postgres/postgres-mfa-challenge-store';
import { PostgresMfaRepository } from '../../adapters/postgres/postgres-mfa-repository';
import { BoundedMemoryRateLimiter } from '../../adapters/rate-limit/bounded-memory-rate-limiter';
import type { AccountsDeps, AccountsPorts, AccountsSettings } from '../../core/accounts/accounts-deps';
import { LoginThrottle } from '../../core/accounts/login-throttle';
import { SessionActivity } from '../../core/accounts/session-activity';
import { SessionIssuer } from '../../core/accounts/session-issuer';
import { SecondFactorThrottle } from '../../core/mfa/second-factor-throttle';
import { MfaSignInCompletion } from '../../core/mfa/sign-in-completion';
import { GatedPasswordHasher } from '../builders/gated-hasher';
import { recordingLogger } from '../support/recording-logger';
import { FakeClock } from '../support/fake-clock';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';
import { describeCredentialRaces } from './credential-races.contract';

const SETTINGS: AccountsSettings = { mode: 'b2c', sessionMaxAgeSeconds: 86_400, appName: 'tenantkit', baseWebUrl: 'https://app.example.com' };

// Under CI=true an unreachable server throws here and fails the file instead of skipping it.
const postgres = await requirePostgres();

/** The same races on real PostgreSQL: the version checks hold in SQL, not only in the model. */
describe.skipIf(!postgres)('credential races on PostgreSQL', () => {
  const clock = new FakeClock();
  let testDatabase: TestDatabase;
  beforeAll(async () => {
    testDatabase = await createTestDatabase(clock);
  });
  afterAll(() => testDatabase?.drop());

  describeCredentialRaces('postgres', async () => {
    const database = testDatabase.database;
    const hasher = new GatedPasswordHasher();
    const ports: AccountsPorts = {
      users: new PostgresUserRepository(database),
      organizations: new PostgresOrganizationRepository(database),
      sessions: new PostgresSessionStore(database),
      tokens: new PostgresOneTimeTokenStore(database),
      outbox: new PostgresEmailOutbox(database),
      passwordHasher: hasher,
      tokenGenerator: new NodeTokenGenerator(),
      tokenHasher: new Sha256TokenHasher(),
      clock,
      unitOfWork: database,
      rateLimiter: new BoundedMemoryRateLimiter(clock),
      audit: new PostgresAuditLog(database),
    };
    const sessionIssuer = new SessionIssuer(ports, SETTINGS.sessionMaxAgeSeconds);
    const deps: AccountsDeps = {
      ...ports,
      settings: SETTINGS,
      sessionIssuer,
      sessionActivity: new SessionActivity({ sessions: ports.sessions, clock, logger: recordingLogger() }),
      loginThrottle: new LoginThrottle(ports),
      signInCompletion: new MfaSignInCompletion({
        ...ports,
        mfa: new PostgresMfaRepository(database),
        challenges: new PostgresMfaChallengeStore(database),
        sessionIssuer,
        secondFactorThrottle: new SecondFactorThrottle(ports),
      }),
      failedSignIns: new FailedSignIns({ users: ports.users, audit: ports.audit, logger: recordingLogger() }),
    };
    return {
      hasher,
      deps,
      async resetToken(to) {
        const rows = await database.select<{ text_body: string }>('select text_body from email_outbox where recipient = $1 order by id desc limit 1', [to]);
        const match = /\/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(rows[0]?.text_body ?? '');
        if (!match) throw new Error(`no reset email to ${to}`);
        return decodeURIComponent(match[1]!);
      },
      teardown: async () => undefined,
    };
  });
});
