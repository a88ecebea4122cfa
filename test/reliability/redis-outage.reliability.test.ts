import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgCluster, type PgCluster } from './support/pg-cluster';
import { startRedisServer, type RedisServer } from './support/redis-server';
import { killAllServices, startService, type ServiceProcess } from './support/processes';
import { brief, byStatus, runLoad, type LoadStep } from './support/load';
import { report } from './support/report';
import { migratedDatabase, query, seedMembers } from './support/stack';
import { waitFor } from './support/ports';
import { STUB_MESSAGE } from '../../adapters/email/stub-mailer';

/**
 * Redis (shared rate limits and BullMQ) stops for OUTAGE_S under load and comes back empty (no
 * persistence). The API stays up and answers rate-limited routes promptly from in-process
 * counters (saying so in its log once), the job schedules are registered again, and every email
 * the API accepted is delivered exactly once afterwards.
 */
const LOAD_S = Number(process.env.RELIABILITY_REDIS_LOAD_SECONDS ?? 20);
const OUTAGE_S = Number(process.env.RELIABILITY_OUTAGE_SECONDS ?? 10);
const ANSWER_BOUND_MS = 2_000;
const FALLBACK = 'rate limits: Redis unreachable; counting per instance, in memory, until it answers';

describe('Redis outage under load', { timeout: (LOAD_S + 120) * 1_000 }, () => {
  let cluster: PgCluster;
  let redis: RedisServer;
  let url: string;
  let cookies: string[];
  let emails: string[];
  let api: ServiceProcess;
  let worker: ServiceProcess;

  beforeAll(async () => {
    [cluster, redis] = await Promise.all([startPgCluster(), startRedisServer()]);
    url = await migratedDatabase(cluster);
    cookies = await seedMembers(url, 60);
    emails = (await query<{ email: string }>(url, 'select email from app_user order by id')).map((row) => row.email);
    const env = {
      APP_DATABASE_URL: url,
      APP_REDIS_URL: redis.url,
      APP_RATE_LIMIT_STORAGE_URI: redis.url,
      APP_BULLMQ_PREFIX: 'tk-reliability',
    };
    [api, worker] = await Promise.all([startService('api', env), startService('worker', env)]);
  }, 120_000);

  afterAll(async () => {
    await killAllServices();
    await redis?.destroy();
    await cluster?.destroy();
  });

  it('rate-limited routes keep answering from in-process counters, jobs resume, no email is lost or sent twice', async () => {
    let forgotten = 0;
    let ip = 0;
    const nextIp = () => `198.51.${(ip >> 8) & 255}.${(ip += 1) & 255}`;
    const post = (path: string, body: unknown, client: string) => (signal: AbortSignal) =>
      fetch(`${api.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': client },
        body: JSON.stringify(body),
        signal,
      });
    const step = (client: number, iteration: number): LoadStep => {
      switch (client) {
        case 0: {
          const email = emails[iteration % emails.length]!;
          return { kind: 'forgot', send: post('/password/forgot', { email }, nextIp()), acknowledged: () => (forgotten += 1) };
        }
        case 1:
          // A fresh address each time: the per-account limit (10 failures per email) must not be
          // what answers here; this client checks the per-IP limit's fallback while Redis is away.
          return { kind: 'login', send: post('/auth/login', { email: `nobody-${iteration}@example.com`, password: 'wrong-password' }, nextIp()) };
        case 2:
          // One client over its login limit the whole time: 429 before, during and after.
          return { kind: 'login-limited', send: post('/auth/login', { email: emails[1], password: 'wrong-password' }, '203.0.113.77') };
        default:
          return { kind: 'read', send: (signal) => fetch(`${api.url}/projects?limit=5`, { headers: { Cookie: cookies[0]! }, signal }) };
      }
    };
    let downAt = Number.POSITIVE_INFINITY;
    let upAt = Number.POSITIVE_INFINITY;
    let phase: 'before' | 'down' | 'up' = 'before';
    const outageStart = ((LOAD_S - OUTAGE_S) / 2) * 1_000;
    const { samples } = await runLoad({
      concurrency: 4,
      durationMs: LOAD_S * 1_000,
      pauseMs: 100,
      timeoutMs: 15_000,
      next: step,
      onTick: (elapsed, now) => {
        if (phase === 'before' && elapsed >= outageStart) {
          phase = 'down';
          void redis.stop().then(() => (downAt = now()));
        } else if (phase === 'down' && elapsed >= outageStart + OUTAGE_S * 1_000) {
          phase = 'up';
          upAt = elapsed;
          void redis.start();
        }
      },
    });

    // The API answered everything, promptly, and never with a 5xx.
    expect(samples.filter((s) => s.status === 0 || s.status >= 500).map(brief)).toEqual([]);
    expect(samples.filter((s) => s.ms > ANSWER_BOUND_MS).map(brief)).toEqual([]);
    const during = samples.filter((s) => s.at >= downAt && s.at < upAt);
    expect(during.length).toBeGreaterThan(20);
    expect(during.filter((s) => s.kind === 'forgot').every((s) => s.status === 202)).toBe(true);
    expect(during.filter((s) => s.kind === 'login').every((s) => s.status === 401)).toBe(true);
    // The over-limit client stays limited while Redis is away (the in-process counter, which
    // counted all along, takes over warm). Redis comes back empty, which grants one fresh budget.
    const limited = samples.filter((s) => s.kind === 'login-limited');
    expect(limited.filter((s) => s.at >= downAt && s.at < upAt).every((s) => s.status === 429)).toBe(true);
    expect(limited.slice(5).filter((s) => s.status !== 429).length).toBeLessThanOrEqual(5);

    // Said once, and once that Redis is back.
    const apiLogs = api.logs();
    expect(apiLogs.filter((line) => line.msg === FALLBACK)).toHaveLength(1);
    expect(apiLogs.filter((line) => line.msg === 'rate limits: Redis answers again; counting shared across instances')).toHaveLength(1);

    // Every accepted email is delivered once the worker's jobs run again, and exactly once.
    await waitFor('every email sent', async () => {
      const [row] = await query<{ unsent: string }>(url, "select count(*) as unsent from email_outbox where status <> 'sent'");
      return Number(row!.unsent) === 0;
    }, 60_000);
    const [{ total }] = (await query<{ total: string }>(url, 'select count(*) as total from email_outbox')) as [{ total: string }];
    expect(Number(total)).toBe(forgotten);
    // A worker marks an email sent before its log line is written (lines are written together,
    // within milliseconds): wait for as many lines as emails, then check there are exactly as many.
    const stubKeys = () => worker.logs().filter((line) => line.msg === STUB_MESSAGE).map((line) => String(line.idempotencyKey));
    await waitFor('every sent email logged', () => stubKeys().length >= forgotten, 10_000).catch(() => undefined);
    const delivered = stubKeys();
    expect(delivered).toHaveLength(forgotten);
    expect(new Set(delivered).size).toBe(forgotten);
    expect(worker.logs().some((line) => typeof line.msg === 'string' && line.msg.includes('after a reconnection'))).toBe(true);

    report({
      scenario: 'Redis stopped under load (comes back empty)',
      load: '4 clients, 100 ms pause: POST /password/forgot, POST /auth/login (fresh IP; one fixed IP over its limit), GET /projects',
      fault: `${OUTAGE_S} s Redis outage from ${Math.round(outageStart / 1000)} s; 1 API + 1 worker`,
      durationS: LOAD_S,
      answers: {
        before: byStatus(samples.filter((s) => s.at + s.ms < outageStart)),
        during: byStatus(during),
        after: byStatus(samples.filter((s) => s.at >= upAt)),
      },
      writes: { acknowledged: forgotten, found: delivered.length },
      notes: [
        `emails accepted ${forgotten}, delivered ${delivered.length}, distinct ${new Set(delivered).size}`,
        `slowest answer ${Math.round(Math.max(...samples.map((s) => s.ms)))} ms`,
      ],
    });
    expect(await worker.stop()).toBe(0);
    expect(await api.stop()).toBe(0);
  });
});
