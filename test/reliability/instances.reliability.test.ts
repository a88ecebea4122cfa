import { connect, createServer, type Socket } from 'node:net';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgCluster, type PgCluster } from './support/pg-cluster';
import { startRedisServer, type RedisServer } from './support/redis-server';
import { killAllServices, startService, type ServiceProcess } from './support/processes';
import { report } from './support/report';
import { migratedDatabase, query, seedMembers } from './support/stack';
import { sleep, waitFor } from './support/ports';
import { STUB_MESSAGE } from '../../adapters/email/stub-mailer';

/**
 * Several instances on one PostgreSQL and one Redis: 2 API processes behind an imaginary load
 * balancer and 3 `npm run worker` processes. Limits hold across the APIs, a recurring job runs
 * once per period however many workers there are, and an email is sent once even when several
 * workers run the delivery job at the same moment.
 */
const PRUNE_PERIOD_S = 2;
const OBSERVE_S = Number(process.env.RELIABILITY_INSTANCES_OBSERVE_SECONDS ?? 11);
const PREFIX = 'tk-instances';

describe('several instances on one PostgreSQL and Redis', { timeout: 180_000 }, () => {
  let cluster: PgCluster;
  let redis: RedisServer;
  let url: string;
  let apis: ServiceProcess[];
  let workers: ServiceProcess[];
  let emails: string[];
  let startedAt: number;

  beforeAll(async () => {
    [cluster, redis] = await Promise.all([startPgCluster(), startRedisServer()]);
    url = await migratedDatabase(cluster);
    await seedMembers(url, 30);
    emails = (await query<{ email: string }>(url, 'select email from app_user order by id')).map((row) => row.email);
    const env = {
      APP_DATABASE_URL: url,
      APP_REDIS_URL: redis.url,
      APP_RATE_LIMIT_STORAGE_URI: redis.url,
      APP_BULLMQ_PREFIX: PREFIX,
      APP_SESSION_PRUNE_INTERVAL_SECONDS: String(PRUNE_PERIOD_S),
    };
    const started = await Promise.all([
      startService('api', env),
      startService('api', env),
      startService('worker', env),
      startService('worker', env),
      startService('worker', env),
    ]);
    apis = started.slice(0, 2);
    workers = started.slice(2);
    startedAt = Date.now();
  }, 150_000);

  afterAll(async () => {
    await killAllServices();
    await redis?.destroy();
    await cluster?.destroy();
  });

  it('the login limit (5 per 15 min per IP) holds across both API instances', async () => {
    const attempt = (api: ServiceProcess) =>
      fetch(`${api.url}/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '203.0.113.5' },
        body: JSON.stringify({ email: emails[0], password: 'wrong-password' }),
      }).then((response) => response.status);
    const statuses: number[] = [];
    for (let i = 0; i < 8; i += 1) statuses.push(await attempt(apis[i % 2]!));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
  });

  it('an email is sent once even when three workers run the delivery job at the same moment', async () => {
    let accepted = 0;
    await Promise.all(
      emails.map(async (email, index) => {
        const response = await fetch(`${apis[index % 2]!.url}/password/forgot`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `198.51.100.${index + 1}` },
          body: JSON.stringify({ email }),
        });
        if (response.status === 202) accepted += 1;
      }),
    );
    expect(accepted).toBe(emails.length);
    // Start the delivery job many times at once, besides its schedule: every worker runs one.
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue('email-delivery', { connection, prefix: PREFIX });
    try {
      await queue.addBulk(Array.from({ length: 9 }, (_, i) => ({ name: 'email-delivery', data: {}, opts: { jobId: `race-${i}` } })));
    } finally {
      await queue.close();
      connection.disconnect();
    }
    await waitFor('every email sent', async () => {
      const [row] = await query<{ unsent: string }>(url, "select count(*) as unsent from email_outbox where status <> 'sent'");
      return Number(row!.unsent) === 0;
    }, 30_000);
    // A worker marks an email sent in the database before its log line has crossed the pipe to
    // this process (lines are written together, within milliseconds): wait until at least as
    // many lines as emails arrived, then check there are exactly as many, all distinct.
    const stubLines = () => workers.flatMap((worker) => worker.logs().filter((line) => line.msg === STUB_MESSAGE));
    await waitFor('every sent email logged', async () => stubLines().length >= accepted, 10_000).catch(() => undefined);
    const sent = stubLines();
    const keys = sent.map((line) => String(line.idempotencyKey));
    expect(keys).toHaveLength(accepted);
    expect(new Set(keys).size).toBe(accepted);
    const racing = new Set(workers.filter((worker) => worker.logs().some((line) => line.msg === 'job ran' && line.queue === 'email-delivery')));
    report({
      scenario: 'Two workers race for the same emails',
      load: `${accepted} password-reset emails accepted by 2 APIs, then 9 delivery jobs at once`,
      fault: '3 workers run the delivery job concurrently',
      durationS: 0,
      answers: {},
      writes: { acknowledged: accepted, found: new Set(keys).size },
      notes: [`sends ${keys.length}, distinct ${new Set(keys).size}, workers that delivered ${racing.size}`],
    });
  });

  it('three workers: the session prune runs exactly once per period', async () => {
    const remaining = startedAt + OBSERVE_S * 1_000 - Date.now();
    if (remaining > 0) await sleep(remaining);
    const runs = workers.flatMap((worker, index) =>
      worker
        .logs()
        .filter((line) => line.msg === 'job ran' && line.queue === 'prune-sessions')
        .map((line) => ({ worker: index, jobId: String(line.job_id) })),
    );
    // BullMQ names each scheduled run after the moment it is due: `repeat:<scheduler>:<ms>`.
    const due = runs.map((run) => Number(/:(\d+)$/.exec(run.jobId)?.[1])).sort((a, b) => a - b);
    expect(due.every((ms) => Number.isFinite(ms))).toBe(true);
    expect(new Set(runs.map((run) => run.jobId)).size).toBe(runs.length); // no period ran twice
    const gaps = due.slice(1).map((ms, i) => ms - due[i]!);
    expect(gaps.every((gap) => gap === PRUNE_PERIOD_S * 1_000)).toBe(true); // and none was skipped
    const observed = (Date.now() - startedAt) / 1_000;
    expect(runs.length).toBeGreaterThanOrEqual(Math.floor(observed / PRUNE_PERIOD_S) - 2);
    // The first worker to start registers the schedule while the others still start: on a busy
    // machine runs fall due before all five are up, so the upper bound counts from the first one.
    expect(runs.length).toBeLessThanOrEqual(Math.ceil((Date.now() - due[0]!) / 1_000 / PRUNE_PERIOD_S) + 1);
    report({
      scenario: 'Three workers, one schedule',
      load: `prune every ${PRUNE_PERIOD_S} s, 3 workers, 2 APIs registering the same schedules`,
      fault: 'none',
      durationS: Math.round(observed),
      answers: {},
      notes: [`prune runs ${runs.length} in ${Math.round(observed)} s, by workers ${[...new Set(runs.map((r) => r.worker))].join(', ')}; gaps ${[...new Set(gaps)].join(', ')} ms`],
    });
    for (const service of [...workers, ...apis]) expect(await service.stop()).toBe(0);
  });

  it('a worker told to stop while it connects finishes its start, then stops cleanly', async () => {
    // Redis behind a gate that holds every connection until it opens: the worker is inside its
    // start (connecting) when the signal lands, and goes on once the gate opens.
    const held: Socket[] = [];
    let open = false;
    const { port } = new URL(redis.url);
    const pass = (client: Socket) => {
      const upstream = connect(Number(port), '127.0.0.1');
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    };
    const gate = createServer((client) => (open ? pass(client) : held.push(client)));
    await new Promise<void>((done) => gate.listen(0, '127.0.0.1', done));
    const gated = `redis://127.0.0.1:${(gate.address() as { port: number }).port}`;
    try {
      const worker = await startService(
        'worker',
        { APP_DATABASE_URL: url, APP_REDIS_URL: gated, APP_RATE_LIMIT_STORAGE_URI: gated, APP_BULLMQ_PREFIX: `${PREFIX}-gated` },
        60_000,
        false,
      );
      await waitFor('the worker connecting to Redis', () => held.length > 0, 30_000);
      worker.child.kill('SIGTERM');
      await sleep(300);
      expect(worker.child.exitCode, 'still running: the signal waits for the start').toBeNull();
      open = true;
      for (const client of held.splice(0)) pass(client);
      // No second signal (that one would mean "exit now"): the first one's stop is awaited.
      await waitFor('the worker to exit', () => worker.child.exitCode !== null || worker.child.signalCode !== null, 30_000);
      expect({ code: worker.child.exitCode, signal: worker.child.signalCode }, worker.otherOutput()).toEqual({ code: 0, signal: null });
      const messages = worker.logs().map((line) => line.msg);
      expect(messages).toContain('shutting down: waiting for the active jobs');
      expect(messages).toContain('worker running');
      expect(messages.at(-1)).toBe('worker stopped');
    } finally {
      gate.close();
    }
  });
});

