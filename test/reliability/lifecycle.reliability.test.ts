import { randomUUID } from 'node:crypto';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgCluster, type PgCluster } from './support/pg-cluster';
import { killAllServices, startService, type ServiceProcess } from './support/processes';
import { byStatus, runLoad, type LoadStep } from './support/load';
import { report } from './support/report';
import { migratedDatabase, query, seedMembers } from './support/stack';
import { sleep, waitFor } from './support/ports';
import { STUB_MESSAGE } from '../../adapters/email/stub-mailer';

/**
 * The API process's life: a SIGTERM under load lets every in-flight request finish and then
 * exits 0, and a soak of mixed traffic leaves memory and event-loop delay flat and the log clean.
 */
const IN_FLIGHT = 50;
/** npm start's drain timeout (app/main.ts); the process must be gone well within it plus teardown. */
const DRAIN_TIMEOUT_MS = 10_000;
/**
 * 60 s in CI: long enough for a dozen RSS and event-loop samples after warm-up, so a leak of a
 * few MB per minute shows as a slope; the 2-minute soak in docs/reliability.md ran with
 * RELIABILITY_SOAK_SECONDS=120.
 */
const SOAK_S = Number(process.env.RELIABILITY_SOAK_SECONDS ?? 60);

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  error?: string;
}

function post(agent: Agent, url: string, path: string, body: unknown, cookie: string): Promise<Answer> {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body);
    const req = request(`${url}${path}`, {
      agent,
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload), Cookie: cookie },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
    });
    req.on('error', (error) => resolve({ status: 0, headers: {}, error: error.message }));
    req.end(payload);
  });
}

/** Linear regression slope of y over x. */
function slope(points: Array<[number, number]>): number {
  const n = points.length;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const num = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const den = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return den === 0 ? 0 : num / den;
}

describe('the API process under SIGTERM and over a soak', { timeout: (SOAK_S + 120) * 1_000 }, () => {
  let cluster: PgCluster;
  let url: string;

  beforeAll(async () => {
    cluster = await startPgCluster();
    url = await migratedDatabase(cluster);
  }, 120_000);

  afterAll(async () => {
    await killAllServices();
    await cluster?.destroy();
  });

  it(`SIGTERM with ${IN_FLIGHT} requests in flight: all complete, new connections are refused, idle ones closed, exit 0`, async () => {
    const [cookie] = await seedMembers(url, 1);
    const api = await startService('api', { APP_DATABASE_URL: url });
    const port = Number(new URL(api.url).port);
    const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT + 1 });
    // The test holds a lock on the project table, so the writes wait in the database (in flight,
    // costing no CPU) until the test lets them through, after the signal.
    const blocker = new pg.Client({ connectionString: url });
    await blocker.connect();
    try {
      // An idle keep-alive connection, as a load balancer keeps them.
      const idle = connect({ host: '127.0.0.1', port });
      await new Promise((resolve) => idle.once('connect', resolve));
      idle.write('GET /ping HTTP/1.1\r\nHost: x\r\n\r\n');
      await new Promise((resolve) => idle.once('data', resolve));
      const idleClosed = new Promise<number>((resolve) => idle.once('close', () => resolve(Date.now())));

      await blocker.query('begin');
      await blocker.query('lock table project in exclusive mode');
      const names = Array.from({ length: IN_FLIGHT }, () => `drain-${randomUUID()}`);
      const answers = names.map((name) => post(agent, api.url, '/projects', { name }, cookie!));
      await waitFor('writes waiting on the lock', async () => {
        const [row] = await query<{ n: string }>(url, "select count(*) as n from pg_stat_activity where wait_event_type = 'Lock'");
        return Number(row!.n) >= 5;
      }, 10_000);
      await sleep(200);
      const signalledAt = Date.now();
      const exit = api.stop('SIGTERM', DRAIN_TIMEOUT_MS + 5_000);
      // New connections are refused once the signal is handled, while the writes still wait.
      await waitFor('new connections refused', () => refused(port), 2_000);
      const refusedAfterMs = Date.now() - signalledAt;
      await sleep(500);
      await blocker.query('commit');
      const results = await Promise.all(answers);
      const code = await exit;
      const exitedAfterMs = Date.now() - signalledAt;

      const problems = api.logs().filter((line) => line.level >= 40).map((line) => line.msg);
      expect({ statuses: results.map((r) => r.error ?? r.status), problems }).toEqual({ statuses: Array(IN_FLIGHT).fill(201), problems: [] });
      expect(results.every((r) => r.headers.connection === 'close')).toBe(true);
      expect(code).toBe(0);
      expect(exitedAfterMs).toBeLessThan(DRAIN_TIMEOUT_MS);
      expect((await idleClosed) - signalledAt).toBeLessThan(2_000);
      const stored = await query<{ n: string }>(url, 'select count(*) as n from project where name = any($1)', [names]);
      expect(Number(stored[0]!.n)).toBe(IN_FLIGHT);
      report({
        scenario: 'SIGTERM under load',
        load: `${IN_FLIGHT} concurrent POST /projects on keep-alive connections, held in flight by a table lock; one idle keep-alive connection`,
        fault: 'SIGTERM while all 50 wait; the lock is released 0.5 s after new connections are refused',
        durationS: Math.round(exitedAfterMs / 100) / 10,
        answers: { 'in flight': byStatus(results.map((r) => ({ status: r.status, at: 0, ms: 0, kind: 'write' }))) },
        writes: { acknowledged: results.filter((r) => r.status === 201).length, found: Number(stored[0]!.n) },
        notes: [
          `new connections refused ${refusedAfterMs} ms after the signal; exit 0 after ${exitedAfterMs} ms`,
          'every answer carried Connection: close; the idle keep-alive connection was closed',
        ],
      });
    } finally {
      await blocker.end().catch(() => undefined);
      agent.destroy();
    }
  });

  it(`soak: ${SOAK_S} s of signup, verify, login, project CRUD and logout; memory and event-loop delay stay flat, no error logged`, async () => {
    const api = await startService('api', { APP_DATABASE_URL: url, APP_LOG_LEVEL: 'debug' });
    let user = 0;
    const journey = journeySteps(api);
    const { samples } = await runLoad({
      concurrency: 4,
      durationMs: SOAK_S * 1_000,
      pauseMs: 20,
      timeoutMs: 10_000,
      next: (client) => journey.next(client, () => (user += 1)),
    });
    const stats = api.logs().filter((line) => line.msg === 'runtime stats');
    expect(await api.stop()).toBe(0);

    expect(samples.filter((s) => s.status === 0 || s.status >= 500)).toEqual([]);
    // Each journey step expects one status; anything else is a failure of the journey.
    const unexpected = samples.filter((s) => s.status !== journey.expected[s.kind]);
    expect(unexpected.map((s) => `${s.kind}: ${s.status} ${s.code ?? ''}`)).toEqual([]);
    expect(api.logs().filter((line) => line.level >= 50)).toEqual([]);

    expect(stats.length).toBeGreaterThanOrEqual(6);
    const t0 = Date.parse(String(stats[0]!.time));
    const points = stats.map((line) => ({
      min: (Date.parse(String(line.time)) - t0) / 60_000,
      rss: Number(line.rss_mb),
      p99: Number((line.event_loop_delay_ms as { p99: number }).p99),
    }));
    const warm = points.slice(Math.floor(points.length / 3)); // the first third is warm-up
    expect(warm.length).toBeGreaterThanOrEqual(4);
    const rssSlope = slope(warm.map((p) => [p.min, p.rss]));
    const p99Slope = slope(warm.map((p) => [p.min, p.p99]));
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const half = Math.floor(warm.length / 2);
    const p99Early = median(warm.slice(0, half).map((p) => p.p99));
    const p99Late = median(warm.slice(half).map((p) => p.p99));
    const rssEarly = median(warm.slice(0, half).map((p) => p.rss));
    const rssLate = median(warm.slice(half).map((p) => p.rss));
    // Flat memory: a leak shows both as a slope over 30 MB per minute after warm-up (retaining even
    // one small object per request would show several times that) and as a later half whose median
    // RSS sits over 20 MB above the earlier half's. Requiring both keeps a short run's late warm-up
    // ramp or one GC-timed sample from failing it, while a real leak still fails both. Flat event
    // loop: the later half's median p99 no worse than twice the earlier half's plus 25 ms; single
    // samples are left alone, since on a shared two-core machine other processes move them.
    const leaking = rssSlope >= 30 && rssLate - rssEarly > 20;
    expect({ rssSlope, rssEarly, rssLate, leaking }).toMatchObject({ leaking: false });
    expect(p99Late).toBeLessThanOrEqual(2 * p99Early + 25);
    report({
      scenario: 'Soak',
      load: '4 virtual users, 20 ms pause: signup → verify email (link from the outbox) → login → create/list/get/update/delete project → logout',
      fault: 'none',
      durationS: SOAK_S,
      answers: { all: byStatus(samples) },
      notes: [
        `${user} journeys started; RSS ${points[0]!.rss} → ${points.at(-1)!.rss} MB, slope after warm-up ${rssSlope.toFixed(1)} MB/min`,
        `event-loop delay p99 ${Math.min(...warm.map((p) => p.p99))}–${Math.max(...warm.map((p) => p.p99))} ms (median ${p99Early} → ${p99Late} ms), slope ${p99Slope.toFixed(1)} ms/min`,
        'error lines in the log: 0',
      ],
    });
  });
});

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED'));
  });
}

/** One virtual user's way through the API, a step per request, with the status each must get. */
function journeySteps(api: ServiceProcess) {
  const expected: Record<string, number> = {
    signup: 201, verify: 200, login: 200, create: 201, list: 200, get: 200, update: 200, delete: 204, logout: 204,
  };
  interface State { step: number; email: string; ip: string; cookie: string; project: number }
  const states = new Map<number, State>();
  const order = Object.keys(expected);
  const json = (path: string, method: string, state: State, body?: unknown) => (signal: AbortSignal) =>
    fetch(`${api.url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': state.ip, ...(state.cookie ? { Cookie: state.cookie } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal,
    });
  const tokenFor = async (email: string) => {
    for (let i = 0; i < 100; i += 1) {
      const line = api.logs().find((l) => l.msg === STUB_MESSAGE && l.to === email);
      const token = line ? /verify-email\?token=([A-Za-z0-9_-]+)/.exec(String(line.text))?.[1] : undefined;
      if (token) return token;
      await sleep(100);
    }
    throw new Error(`no verification email for ${email}`);
  };
  return {
    expected,
    next(client: number, newUser: () => number): LoadStep {
      let state = states.get(client);
      if (!state || state.step >= order.length) {
        const n = newUser();
        state = { step: 0, email: `soak-${n}-${randomUUID().slice(0, 8)}@example.com`, ip: `10.77.${(n >> 8) & 255}.${n & 255}`, cookie: '', project: 0 };
        states.set(client, state);
      }
      const s = state;
      const kind = order[s.step]!;
      s.step += 1;
      switch (kind) {
        case 'signup':
          return { kind, send: json('/auth/signup', 'POST', s, { email: s.email, password: 'password123', first_name: 'S', last_name: 'K' }) };
        case 'verify':
          return { kind, send: async (signal) => json('/auth/verify-email', 'POST', s, { token: await tokenFor(s.email) })(signal) };
        case 'login':
          return {
            kind,
            send: async (signal) => {
              const response = await json('/auth/login', 'POST', s, { email: s.email, password: 'password123' })(signal);
              s.cookie = (response.headers.get('set-cookie') ?? '').split(';')[0]!;
              return response;
            },
          };
        case 'create':
          return { kind, send: json('/projects', 'POST', s, { name: 'Soak', description: 'x'.repeat(200) }), acknowledged: (body) => (s.project = (body as { id: number }).id) };
        case 'list':
          return { kind, send: json('/projects?limit=20', 'GET', s) };
        case 'get':
          return { kind, send: (signal) => json(`/projects/${s.project}`, 'GET', s)(signal) };
        case 'update':
          return { kind, send: (signal) => json(`/projects/${s.project}`, 'PUT', s, { name: 'Soaked' })(signal) };
        case 'delete':
          return { kind, send: (signal) => json(`/projects/${s.project}`, 'DELETE', s)(signal) };
        default:
          return { kind, send: json('/auth/logout', 'POST', s) };
      }
    },
  };
}
