import { randomBytes } from 'node:crypto';
import { Queue, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PostgresSessionStore } from '../postgres/postgres-session-store';
import { SystemClock } from '../system/system-clock';
import type { SessionStore } from '../../core/accounts/session-store.port';
import { PruneExpiredSessions } from '../../core/jobs/prune-expired-sessions.use-case';
import type { Logger } from '../../core/shared/logger.port';
import { createTestDatabase, requirePostgres, requireRedis, TEST_REDIS_URL, type TestDatabase } from '../../test/support/postgres';
import { insertOrganization, insertUser } from '../../test/support/sessions';
import { BullmqScheduler } from './bullmq-scheduler';
import { BullmqWorkerHost, type JobProcessor } from './bullmq-worker';

// Under CI=true an unreachable server throws here and fails the file instead of skipping it.
const postgres = await requirePostgres();
const redis = await requireRedis();

const JOB = 'prune-sessions';
const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
// Short enough that a dead worker's job is found stalled within a couple of seconds.
const FAST_STALLS = { lockDuration: 1_000, stalledInterval: 500, maxStalledCount: 1, drainDelay: 1 };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** A client per simulated process, as each `npm run worker` opens its own. */
const connect = () => new Redis(TEST_REDIS_URL, { protocol: 2, maxRetriesPerRequest: null });

describe.skipIf(!postgres || !redis)('BullMQ scheduler and worker host', () => {
  let testDatabase: TestDatabase;
  let sessions: SessionStore;
  const clients: Redis[] = [];
  const hosts: BullmqWorkerHost[] = [];
  const schedulers: BullmqScheduler[] = [];
  let prefix = '';

  const client = () => {
    const created = connect();
    clients.push(created);
    return created;
  };

  /** `expired` sessions 30 days past expiry and `live` ones, for one user. */
  async function seedSessions(expired: number, live: number): Promise<void> {
    const database = testDatabase.database;
    await database.run('truncate table organization, app_user, session restart identity cascade', []);
    const userId = await insertUser(database, await insertOrganization(database));
    await database.run(
      `insert into session (token_hash, user_id, created_at, last_seen_at, expires_at)
       select md5(g::text) || md5((g + 1000000)::text), $1, now(), now(), case when g <= $2 then now() - interval '30 days' else now() + interval '1 day' end
         from generate_series(1, $3) g`,
      [userId, expired, expired + live],
    );
  }

  const sessionCounts = async () => {
    const [row] = await testDatabase.database.select<{ expired: string; live: string }>(
      `select count(*) filter (where expires_at < now()) as expired, count(*) filter (where expires_at >= now()) as live from session`,
      [],
    );
    return { expired: Number(row!.expired), live: Number(row!.live) };
  };

  function startHost(name: string, processor: JobProcessor): Promise<BullmqWorkerHost> {
    const host = new BullmqWorkerHost({ connection: client(), prefix, logger: silent, name, stall: FAST_STALLS });
    hosts.push(host);
    host.register(JOB, processor);
    return host.start().then(() => host);
  }

  function register(everyMs: number, run = async () => undefined) {
    const scheduler = new BullmqScheduler({ connection: client(), prefix });
    schedulers.push(scheduler);
    return scheduler.start([{ name: JOB, everyMs, run }]);
  }

  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    sessions = new PostgresSessionStore(testDatabase.database);
  });

  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close(true)));
    await Promise.all(schedulers.splice(0).map((scheduler) => scheduler.stop()));
    const admin = client();
    const queue = new Queue(JOB, { connection: admin, prefix });
    await queue.obliterate({ force: true });
    await queue.close();
    // obliterate leaves the scheduler and meta keys; only this test's prefix is ever touched.
    const keys = await admin.keys(`${prefix}:*`);
    if (keys.length > 0) await admin.del(...keys);
    await Promise.all(clients.splice(0).map((c) => c.quit().catch(() => c.disconnect())));
  });

  afterAll(async () => {
    await testDatabase?.drop();
  });

  it('three workers: the prune job runs exactly once per period, and prunes only expired sessions', async () => {
    prefix = `tk-test-${randomBytes(4).toString('hex')}`;
    await seedSessions(120, 30);
    const prune = new PruneExpiredSessions({ sessions, clock: new SystemClock(), settings: { retentionDays: 7, batchSize: 50 } });
    const runs: { worker: string; jobId: string | undefined; pruned: number }[] = [];
    for (const name of ['w1', 'w2', 'w3']) {
      await startHost(name, async (job: Job) => {
        const pruned = await prune.execute();
        runs.push({ worker: name, jobId: job.id, pruned });
        return { pruned_sessions: pruned };
      });
    }
    const PERIOD = 500;
    const startedAt = Date.now();
    await register(PERIOD);
    await sleep(4_000);
    await Promise.all(hosts.splice(0).map((host) => host.close()));
    const periods = Math.floor((Date.now() - startedAt) / PERIOD);

    expect(new Set(runs.map((run) => run.jobId)).size).toBe(runs.length);
    expect(runs.length).toBeGreaterThanOrEqual(periods - 1);
    expect(runs.length).toBeLessThanOrEqual(periods + 1);
    expect(runs.reduce((sum, run) => sum + run.pruned, 0)).toBe(120);
    await expect(sessionCounts()).resolves.toEqual({ expired: 0, live: 30 });
  });

  it('a job whose worker dies mid-run is found stalled and retried by another worker, pruning nothing twice', async () => {
    prefix = `tk-test-${randomBytes(4).toString('hex')}`;
    await seedSessions(35, 10);
    let doomed: string | undefined;
    let firstBatch = 0;
    const attempts: string[] = [];
    const processor = (name: string): JobProcessor => async () => {
      attempts.push(name);
      // The first attempt deletes one batch, then hangs as a process would that is killed mid-job.
      const store: SessionStore = Object.create(sessions) as SessionStore;
      store.pruneExpiredBefore = async (cutoff, batchSize) => {
        const deleted = await sessions.pruneExpiredBefore(cutoff, batchSize);
        if (doomed === undefined) {
          doomed = name;
          firstBatch = deleted;
          await new Promise(() => undefined);
        }
        return deleted;
      };
      const pruned = await new PruneExpiredSessions({ sessions: store, clock: new SystemClock(), settings: { retentionDays: 7, batchSize: 10 } }).execute();
      return { pruned_sessions: pruned };
    };
    const byName = new Map<string, BullmqWorkerHost>();
    for (const name of ['w1', 'w2', 'w3']) byName.set(name, await startHost(name, processor(name)));
    // One run now, the next one far away: only the first job exists during the test.
    await register(3_600_000);

    await until(() => doomed !== undefined, 10_000);
    await byName.get(doomed!)!.close(true);
    const queue = new Queue(JOB, { connection: client(), prefix });
    try {
      await until(async () => (await queue.getCompletedCount()) === 1, 15_000);
      const [job] = await queue.getCompleted();
      expect(attempts).toHaveLength(2);
      expect(attempts[1]).not.toBe(doomed);
      expect(job?.stalledCounter).toBe(1);
      expect(firstBatch).toBe(10);
      expect(job?.returnvalue).toEqual({ pruned_sessions: 25 });
      await expect(sessionCounts()).resolves.toEqual({ expired: 0, live: 10 });
    } finally {
      await queue.close();
    }
  });

  it('registering again, as a restart or a second instance does, keeps one scheduler and one pending job', async () => {
    prefix = `tk-test-${randomBytes(4).toString('hex')}`;
    await register(3_600_000);
    await register(3_600_000);
    await register(3_600_000);
    const queue = new Queue(JOB, { connection: client(), prefix });
    try {
      const all = await queue.getJobSchedulers();
      expect(all).toHaveLength(1);
      expect(all[0]).toMatchObject({ key: JOB, every: 3_600_000 });
      const counts = await queue.getJobCounts('wait', 'delayed', 'active');
      expect(counts.wait! + counts.delayed! + counts.active!).toBe(1);
    } finally {
      await queue.close();
    }
  });
});
