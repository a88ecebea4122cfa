import { randomBytes } from 'node:crypto';
import { recordingLogger, type LogLine } from '../../test/support/recording-logger';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeliverDueEmails } from '../../core/email/deliver-due-emails.use-case';
import type { DeliveryPolicy } from '../../core/email/deliver-due-emails.use-case';
import type { Mailer } from '../../core/email/mailer.port';
import { verificationEmail } from '../../core/email/templates';
import { aNewUser } from '../../test/contracts/user-repository.contract';
import { startAzureFake } from '../../test/fakes/azure-fake';
import type { EmailProviderFake, ReceivedEmail } from '../../test/fakes/fake-provider-server';
import { FakeClock } from '../../test/support/fake-clock';
import { startPostmarkFake } from '../../test/fakes/postmark-fake';
import { startSesFake } from '../../test/fakes/ses-fake';
import { createTestDatabase, requirePostgres } from '../../test/support/postgres';
import type { TestDatabase } from '../../test/support/postgres';
import { Database } from '../postgres/database';
import { SystemClock } from '../system/system-clock';
import { openOrm } from '../postgres/orm';
import { PostgresEmailOutbox } from '../postgres/postgres-email-outbox';
import { PostgresOrganizationRepository } from '../postgres/postgres-organization-repository';
import { PostgresOutboxDeliveryStore } from '../postgres/postgres-outbox-delivery-store';
import { PostgresUserRepository } from '../postgres/postgres-user-repository';
import { AzureMailer } from './azure-mailer';
import { PostmarkMailer } from './postmark-mailer';
import { SesMailer } from './ses-mailer';

/**
 * The outbox end to end: rows in real PostgreSQL, DeliverDueEmails, the real SDK adapters, and
 * the provider fakes on 127.0.0.1 failing on cue. Time is a FakeClock jumped to each retry; what
 * counts as delivered is what the fake received.
 *
 * Idempotency is asserted on the key each provider's request carries, as the fake parses it:
 * Postmark `Metadata.idempotency_key` (also the `X-Idempotency-Key` email header), SES the
 * `X-Idempotency-Key` email header (also the `idempotency_key` EmailTag), Azure the
 * `Operation-Id` request header. A send whose answer was lost (`slow`: the fake accepts after the
 * client gave up) is received twice, under the same key; every other email exactly once.
 */

const CLIENT_TIMEOUT_MS = 1_000;
const SLOW_MS = 2_500; // > CLIENT_TIMEOUT_MS: `slow` means "accepted, answer lost"
const SENDER = { senderAddress: 'no-reply@mail.example.test', senderName: 'Tenantkit' };
const TEMPLATE = { appName: 'Tenantkit', baseWebUrl: 'https://app.example.test' };

// More attempts than the outage has failures, so the outage alone can never dead-letter an email.
const POLICY: DeliveryPolicy = { maxAttempts: 20, baseDelayMs: 1_000, maxDelayMs: 30_000, leaseMs: 60_000, batchSize: 5 };

interface Provider {
  name: string;
  start(): Promise<{ fake: EmailProviderFake; mailer: Mailer }>;
  /** Every place this provider's request carried the key; all must agree. */
  keysOf(email: ReceivedEmail): Array<string | undefined>;
}

const PROVIDERS: Provider[] = [
  {
    name: 'Postmark',
    async start() {
      const serverToken = `pm-${randomBytes(12).toString('hex')}`;
      const fake = await startPostmarkFake({ serverToken, slowMs: SLOW_MS });
      return { fake, mailer: new PostmarkMailer({ serverToken, ...SENDER, apiBaseUrl: fake.url, timeoutMs: CLIENT_TIMEOUT_MS }) };
    },
    keysOf: (email) => [email.idempotencyToken, email.headers['X-Idempotency-Key']],
  },
  {
    name: 'SES',
    async start() {
      const credentials = { accessKeyId: 'AKIAFAKEFORTESTS0001', secretAccessKey: randomBytes(20).toString('base64') };
      const fake = await startSesFake({ region: 'eu-west-1', ...credentials, slowMs: SLOW_MS });
      const mailer = new SesMailer({ region: 'eu-west-1', ...SENDER, endpoint: fake.url, credentials, timeoutMs: CLIENT_TIMEOUT_MS });
      return { fake, mailer };
    },
    keysOf: (email) => {
      const tags = (email.body as { EmailTags?: Array<{ Name: string; Value: string }> }).EmailTags ?? [];
      return [email.idempotencyToken, tags.find((tag) => tag.Name === 'idempotency_key')?.Value];
    },
  },
  {
    name: 'Azure',
    async start() {
      const fake = await startAzureFake({ slowMs: SLOW_MS });
      const mailer = new AzureMailer({
        connectionString: fake.connectionString,
        senderAddress: SENDER.senderAddress,
        timeoutMs: CLIENT_TIMEOUT_MS,
        pollIntervalMs: 5,
      });
      return { fake, mailer };
    },
    // The outbox's keys are UUIDs, which the adapter uses as the Operation-Id as they are.
    keysOf: (email) => [email.idempotencyToken, email.headers['X-Idempotency-Key']],
  },
];

/** mulberry32: the same jitter on every run. */
const seededRandom = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
};

interface OutboxRow {
  id: number;
  key: string;
  to: string;
  status: string;
  attempts: number;
  lastError: string | null;
}

async function outboxRows(database: Database): Promise<OutboxRow[]> {
  const rows = await database.select<{ id: string; idempotency_key: string; recipient: string; status: string; attempts: number; last_error: string | null }>(
    'select id, idempotency_key, recipient, status, attempts, last_error from email_outbox order by id',
    [],
  );
  return rows.map((r) => ({ id: Number(r.id), key: r.idempotency_key, to: r.recipient, status: r.status, attempts: r.attempts, lastError: r.last_error }));
}

/** Enqueues `count` verification emails, each in its own transaction, as a signup would. */
async function enqueueEmails(database: Database, count: number, prefix = 'user'): Promise<void> {
  const outbox = new PostgresEmailOutbox(database);
  for (let i = 0; i < count; i += 1) {
    await database.transaction(() =>
      outbox.enqueue({ to: `${prefix}-${i}@example.test`, ...verificationEmail({ ...TEMPLATE, token: `token-${prefix}-${i}` }), tag: 'verify-email' }),
    );
  }
}

/**
 * Runs the use case until no email is pending or leased, moving the clock to the next due time
 * after each run: a driver that polls every second, with the waiting cut out. Bounded in runs and
 * in wall time.
 */
async function drain(deliver: DeliverDueEmails, clock: FakeClock, database: Database): Promise<number> {
  const deadline = Date.now() + 40_000;
  for (let run = 1; run <= 200 && Date.now() < deadline; run += 1) {
    await deliver.execute();
    const [row] = await database.select<{ due: string | Date | null }>(
      "select min(next_attempt_at) as due from email_outbox where status in ('pending', 'sending')",
      [],
    );
    const due = row?.due;
    if (due === null || due === undefined) return run;
    clock.set(new Date(Math.max(clock.now().getTime(), new Date(due).getTime())));
  }
  throw new Error(`outbox not drained: ${JSON.stringify(await outboxRows(database))}`);
}

/** `slow` requests are recorded by the fake when they finally answer; wait for them, bounded. */
async function waitForReceived(fake: EmailProviderFake, count: number): Promise<void> {
  const deadline = Date.now() + 5 * SLOW_MS;
  while (fake.received.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  // Let a straggler (which would be a bug) land before the caller counts.
  await new Promise((resolve) => setTimeout(resolve, 100));
}

function receivedByKey(provider: Provider, fake: EmailProviderFake): Map<string, ReceivedEmail[]> {
  const groups = new Map<string, ReceivedEmail[]>();
  for (const email of fake.received) {
    const [key, ...others] = provider.keysOf(email);
    expect(key, 'every request carries the idempotency key').toEqual(expect.any(String));
    for (const other of others) expect(other).toBe(key);
    groups.set(key!, [...(groups.get(key!) ?? []), email]);
  }
  return groups;
}

const postgres = await requirePostgres();

describe.skipIf(!postgres)('email outbox delivery, end to end (PostgreSQL + SDK adapters + provider fakes)', () => {
  let testDb: TestDatabase;
  let fake: EmailProviderFake | undefined;
  let logs: LogLine[];

  beforeEach(async () => {
    testDb = await createTestDatabase();
    logs = [];
  });

  afterEach(async () => {
    await fake?.close();
    fake = undefined;
    await testDb.drop();
  });

  describe.each(PROVIDERS)('$name', (provider) => {
    it('an outage (5xx, 429, dropped connections, lost answers) then recovery: every email delivered, once per key', async () => {
      const started = await provider.start();
      fake = started.fake;
      await enqueueEmails(testDb.database, 20);
      const rows = await outboxRows(testDb.database);
      const clock = new FakeClock(new Date());
      const deliver = new DeliverDueEmails(
        { store: new PostgresOutboxDeliveryStore(testDb.database), mailer: started.mailer, clock, logger: recordingLogger(logs), random: seededRandom(7), policy: POLICY },
      );
      fake.failNext('server-error', 5);
      fake.failNext('rate-limited', 4);
      fake.failNext('drop', 3);
      fake.failNext('slow', 2);
      const failures = 5 + 4 + 3 + 2;
      const lostAnswers = 2;

      const runs = await drain(deliver, clock, testDb.database);
      await waitForReceived(fake, rows.length + lostAnswers);

      const after = await outboxRows(testDb.database);
      expect(after.map((r) => r.status)).toEqual(rows.map(() => 'sent'));
      // One provider request per attempt, one attempt per failure plus one success per email.
      expect(fake.sendAttempts).toBe(rows.length + failures);
      expect(after.reduce((sum, r) => sum + r.attempts, 0)).toBe(rows.length + failures);
      expect(runs).toBeGreaterThan(1);

      const groups = receivedByKey(provider, fake);
      expect([...groups.keys()].sort()).toEqual(rows.map((r) => r.key).sort());
      const copies = [...groups.values()].map((emails) => emails.length);
      expect(copies.filter((n) => n === 1)).toHaveLength(rows.length - lostAnswers);
      expect(copies.filter((n) => n === 2)).toHaveLength(lostAnswers);
      for (const row of after) {
        const emails = groups.get(row.key)!;
        // Duplicates are the same email, not a mix-up: same recipient, same body, same key.
        for (const email of emails) expect(email).toMatchObject({ to: row.to, text: emails[0]!.text });
        expect(emails[0]!.text).toContain(`token-${row.to.split('@')[0]}`);
      }
      expect(fake.protocolErrors).toEqual([]);
      expect(logs.filter((l) => l.message === 'email delivery failed, will retry')).toHaveLength(failures);
      expect(logs.filter((l) => l.level === 'error')).toEqual([]);
    });

    it('a permanent rejection goes to dead-letter after exactly one request, logged, and is never retried', async () => {
      const started = await provider.start();
      fake = started.fake;
      await enqueueEmails(testDb.database, 1, 'bounced');
      const clock = new FakeClock(new Date());
      const deliver = new DeliverDueEmails(
        { store: new PostgresOutboxDeliveryStore(testDb.database), mailer: started.mailer, clock, logger: recordingLogger(logs), random: seededRandom(1), policy: POLICY },
      );
      fake.failNext('permanent', 1);

      expect(await deliver.execute()).toEqual({ sent: 0, retried: 0, dead: 1 });
      for (let run = 0; run < 5; run += 1) {
        clock.advance(POLICY.maxDelayMs + POLICY.leaseMs);
        expect(await deliver.execute()).toEqual({ sent: 0, retried: 0, dead: 0 });
      }

      const [row] = await outboxRows(testDb.database);
      expect(row).toMatchObject({ status: 'dead', attempts: 1 });
      expect(row?.lastError).toMatch(/permanent/);
      expect(fake.sendAttempts).toBe(1);
      expect(fake.received).toEqual([]);
      expect(logs.filter((l) => l.level === 'error')).toEqual([
        expect.objectContaining({ message: 'email dead-lettered', fields: expect.objectContaining({ email_id: row?.id, kind: 'permanent', attempt: 1 }) }),
      ]);
    });
  });

  it('a process that dies mid-batch loses nothing: a new process picks the batch up once the lease ends', async () => {
    const provider = PROVIDERS[0]!;
    const started = await provider.start();
    fake = started.fake;
    await enqueueEmails(testDb.database, 12);
    const rows = await outboxRows(testDb.database);
    const startedAt = new Date();

    // Process A claims a batch, gets one email out (the provider accepted it), and dies before
    // recording anything.
    const storeA = new PostgresOutboxDeliveryStore(testDb.database);
    const leaseUntil = new Date(startedAt.getTime() + POLICY.leaseMs);
    const batch = await storeA.claimDue(startedAt, leaseUntil, POLICY.batchSize);
    expect(batch).toHaveLength(POLICY.batchSize);
    await started.mailer.send(batch[0]!.message);
    await testDb.database.close();

    // Process B: a new ORM, store, clock and use case on the same database.
    const orm = await openOrm({ clientUrl: testDb.url, poolMax: 2 });
    const database = new Database(orm, new SystemClock());
    try {
      const clock = new FakeClock(startedAt);
      const deliver = new DeliverDueEmails(
        { store: new PostgresOutboxDeliveryStore(database), mailer: started.mailer, clock, logger: recordingLogger(logs), random: seededRandom(3), policy: POLICY },
      );

      // Before the lease ends B sends everything but A's batch, which stays leased.
      expect(await deliver.execute()).toEqual({ sent: 5, retried: 0, dead: 0 });
      expect(await deliver.execute()).toEqual({ sent: 2, retried: 0, dead: 0 });
      clock.set(new Date(leaseUntil.getTime() - 1));
      expect(await deliver.execute()).toEqual({ sent: 0, retried: 0, dead: 0 });
      const leased = (await outboxRows(database)).filter((r) => r.status === 'sending');
      expect(leased.map((r) => r.id).sort()).toEqual(batch.map((e) => e.id).sort());

      clock.set(leaseUntil);
      await drain(deliver, clock, database);

      const after = await outboxRows(database);
      expect(after.map((r) => r.status)).toEqual(rows.map(() => 'sent'));
      for (const row of after) expect(row.attempts).toBe(batch.some((e) => e.id === row.id) ? 2 : 1);

      await waitForReceived(fake, rows.length + 1);
      const groups = receivedByKey(provider, fake);
      expect([...groups.keys()].sort()).toEqual(rows.map((r) => r.key).sort());
      // The one email A got out before dying went out again, under the same key; no other twice.
      for (const [key, emails] of groups) expect(emails).toHaveLength(key === batch[0]!.message.idempotencyKey ? 2 : 1);
      expect(fake.received).toHaveLength(rows.length + 1);
    } finally {
      await database.close();
    }
  });

  it('an email is enqueued in the same transaction as the state change that causes it: both commit or neither', async () => {
    const provider = PROVIDERS[0]!;
    const started = await provider.start();
    fake = started.fake;
    const { database } = testDb;
    const organizations = new PostgresOrganizationRepository(database);
    const users = new PostgresUserRepository(database);
    const outbox = new PostgresEmailOutbox(database);
    const signUp = (email: string, fail: boolean) =>
      database.transaction(async () => {
        const organization = await organizations.create({ name: `Org of ${email}` });
        await users.create(aNewUser(organization.id, { email }));
        await outbox.enqueue({ to: email, ...verificationEmail({ ...TEMPLATE, token: 'tok' }), tag: 'verify-email' });
        if (fail) throw new Error('failure after the user and the email were written');
      });
    const count = async (table: string, column: string, value: string) =>
      Number((await database.select<{ n: string }>(`select count(*) as n from ${table} where ${column} = $1`, [value]))[0]?.n);

    await expect(signUp('rolled-back@example.test', true)).rejects.toThrow('failure after the user and the email were written');
    expect(await count('app_user', 'email', 'rolled-back@example.test')).toBe(0);
    expect(await count('organization', 'name', 'Org of rolled-back@example.test')).toBe(0);
    expect(await count('email_outbox', 'recipient', 'rolled-back@example.test')).toBe(0);

    await signUp('committed@example.test', false);
    expect(await count('app_user', 'email', 'committed@example.test')).toBe(1);
    expect(await count('email_outbox', 'recipient', 'committed@example.test')).toBe(1);

    const clock = new FakeClock(new Date());
    const deliver = new DeliverDueEmails(
      { store: new PostgresOutboxDeliveryStore(database), mailer: started.mailer, clock, logger: recordingLogger(logs), random: seededRandom(5), policy: POLICY },
    );
    await drain(deliver, clock, database);
    expect(fake.received.map((email) => email.to)).toEqual(['committed@example.test']);
  });
});
