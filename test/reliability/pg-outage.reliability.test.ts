import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgCluster, type PgCluster } from './support/pg-cluster';
import { killAllServices, startService, type ServiceProcess } from './support/processes';
import { brief, byStatus, runLoad, type LoadStep, type Sample } from './support/load';
import { report } from './support/report';
import { migratedDatabase, query, seedMembers } from './support/stack';
import { sleep } from './support/ports';
import { DATABASE_TIME_LIMITS } from '../../adapters/postgres/orm';

/**
 * PostgreSQL goes away under steady authenticated writes and reads, then comes back. While it is
 * away every request answers 503 SERVICE_UNAVAILABLE with Retry-After within a bound (FAULTS) (no
 * hang, no 500), /health names the failing check, the API recovers by itself once the database is
 * back, and every write that was acknowledged with a 2xx is in the database afterwards.
 */
const LOAD_S = Number(process.env.RELIABILITY_LOAD_SECONDS ?? 30);
const OUTAGE_S = Number(process.env.RELIABILITY_OUTAGE_SECONDS ?? 10);
const CLIENTS = 6;

type Fault = 'stop' | 'kill' | 'freeze';

/**
 * Per fault: how long the load runs and the fault lasts, and the bound on every answer sent during
 * it. A refused connection fails at once (2 s bound); a frozen server is given up on after the
 * client-side query time-out (DATABASE_TIME_LIMITS.queryMs) plus 1.5 s of slack.
 */
const FAULTS: Record<Fault, { label: string; loadS: number; outageS: number; boundMs: number }> = {
  stop: { label: 'stopped (pg_ctl stop -m fast)', loadS: LOAD_S, outageS: OUTAGE_S, boundMs: 2_000 },
  kill: { label: 'killed (SIGKILL of the postmaster)', loadS: LOAD_S, outageS: OUTAGE_S, boundMs: 2_000 },
  freeze: {
    label: 'frozen (SIGSTOP of the postmaster and every backend)',
    loadS: Number(process.env.RELIABILITY_FREEZE_LOAD_SECONDS ?? 24),
    outageS: Number(process.env.RELIABILITY_FREEZE_SECONDS ?? 10),
    boundMs: DATABASE_TIME_LIMITS.queryMs + 1_500,
  },
};

interface Run {
  samples: Sample[];
  /** When the fault was started, when it had taken effect, when the restart began (ms into the load). */
  faultStartAt: number;
  faultAt: number;
  restoreAt: number;
  healthDuring: { status: number; body: unknown };
  healthAfter: { status: number; body: unknown };
  acknowledged: Set<string>;
}

describe('PostgreSQL outage under load', { timeout: (Math.max(LOAD_S, FAULTS.freeze.loadS) + 90) * 1_000 }, () => {
  let cluster: PgCluster;
  let url: string;
  let cookies: string[];

  beforeAll(async () => {
    cluster = await startPgCluster();
    url = await migratedDatabase(cluster);
    cookies = await seedMembers(url, CLIENTS);
  }, 120_000);

  afterAll(async () => {
    await killAllServices();
    await cluster?.destroy();
  });

  async function outage(fault: Fault): Promise<Run> {
    const { loadS, outageS } = FAULTS[fault];
    const api = await startService('api', { APP_DATABASE_URL: url, APP_LOG_LEVEL: 'info' });
    const acknowledged = new Set<string>();
    let faultStartAt = Number.POSITIVE_INFINITY;
    let faultAt = Number.POSITIVE_INFINITY;
    let restoreAt = Number.POSITIVE_INFINITY;
    let healthDuring = { status: 0, body: undefined as unknown };
    let phase: 'before' | 'faulting' | 'down' | 'restoring' | 'up' = 'before';
    const health = async () => {
      const response = await fetch(`${api.url}/health`, { signal: AbortSignal.timeout(5_000) });
      return { status: response.status, body: await response.json() };
    };
    const step = (client: number, iteration: number): LoadStep => {
      const cookie = cookies[client]!;
      if (iteration % 2 === 0) {
        const name = `w-${fault}-${randomUUID()}`;
        return {
          kind: 'write',
          send: (signal) =>
            fetch(`${api.url}/projects`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', Cookie: cookie },
              body: JSON.stringify({ name, description: 'reliability' }),
              signal,
            }),
          acknowledged: () => acknowledged.add(name),
        };
      }
      return { kind: 'read', send: (signal) => fetch(`${api.url}/projects?limit=5`, { headers: { Cookie: cookie }, signal }) };
    };
    try {
      const { samples } = await runLoad({
        concurrency: CLIENTS,
        durationMs: loadS * 1_000,
        pauseMs: 10,
        timeoutMs: 15_000,
        next: step,
        onTick: (elapsed, now) => {
          const outageStart = ((loadS - outageS) / 2) * 1_000;
          if (phase === 'before' && elapsed >= outageStart) {
            phase = 'faulting';
            faultStartAt = elapsed;
            const inject = { stop: () => cluster.stop(), kill: () => cluster.kill(), freeze: () => cluster.freeze() }[fault];
            void inject().then(async () => {
              faultAt = now();
              phase = 'down';
              await sleep(outageS * 500);
              healthDuring = await health();
            });
          }
          if (phase === 'down' && elapsed >= outageStart + outageS * 1_000) {
            phase = 'restoring';
            restoreAt = now();
            void (fault === 'freeze' ? cluster.thaw() : cluster.start()).then(() => {
              phase = 'up';
            });
          }
        },
      });
      // The API must find the database again by itself: poll /health, bounded.
      let healthAfter = await health();
      for (let i = 0; i < 20 && healthAfter.status !== 200; i += 1) {
        await sleep(500);
        healthAfter = await health();
      }
      return { samples, faultStartAt, faultAt, restoreAt, healthDuring, healthAfter, acknowledged };
    } finally {
      const code = await api.stop('SIGTERM');
      expect(code).toBe(0);
      await logsChecked(api);
    }
  }

  const logsChecked = async (api: ServiceProcess) => {
    // An outage is expected, not a bug: no line at error level with a stack per failed request.
    const errors = api.logs().filter((line) => line.level >= 50);
    expect(errors.filter((line) => line.code === 'SERVICE_UNAVAILABLE')).toEqual([]);
    expect(errors.filter((line) => line.msg === 'unhandled error')).toEqual([]);
  };

  for (const fault of ['stop', 'kill', 'freeze'] as const) {
    const { label, loadS, outageS, boundMs } = FAULTS[fault];
    it(`PostgreSQL ${label}: 503 with Retry-After within ${boundMs} ms while down, recovery by itself, no acknowledged write lost`, async () => {
      const run = await outage(fault);
      const { samples, faultAt, restoreAt } = run;
      expect(Number.isFinite(faultAt)).toBe(true);
      expect(Number.isFinite(restoreAt)).toBe(true);
      // Answered before the fault began (a request in flight when it hit may fairly get a 503).
      const before = samples.filter((s) => s.at + s.ms < run.faultStartAt);
      const during = samples.filter((s) => s.at >= faultAt && s.at < restoreAt);
      const after = samples.filter((s) => s.at >= restoreAt);

      // Never a hang, a dropped connection or a 500.
      expect(samples.filter((s) => s.status === 0).map(brief)).toEqual([]);
      expect(samples.filter((s) => s.status >= 500 && s.status !== 503).map(brief)).toEqual([]);
      for (const s of samples.filter((x) => x.status === 503)) {
        expect(s.code).toBe('SERVICE_UNAVAILABLE');
        expect(Number(s.retryAfter)).toBeGreaterThan(0);
      }
      // While the database is down: answered, quickly, with 503 (and the outage really happened).
      // (A request sent late in a freeze may wait out the thaw and succeed: 2xx is fine, so long as
      // it came within the bound.)
      expect(during.length).toBeGreaterThan(10);
      expect(during.filter((s) => s.status !== 503 && (s.status < 200 || s.status >= 300)).map(brief)).toEqual([]);
      expect(during.filter((s) => s.status === 503).length, JSON.stringify(byStatus(during))).toBeGreaterThan(during.length / 2);
      expect(during.filter((s) => s.ms > boundMs).map(brief)).toEqual([]);
      expect(run.healthDuring.status).toBe(503);
      expect(run.healthDuring.body).toMatchObject({ status: 'unavailable', checks: { database: 'down' } });
      // Back by itself: healthy, and the last few seconds of load all succeeded.
      expect(run.healthAfter).toMatchObject({ status: 200, body: { status: 'ok', checks: { database: 'ok' } } });
      const settled = samples.filter((s) => s.at >= loadS * 1_000 - 3_000);
      expect(settled.length).toBeGreaterThan(10);
      expect(settled.every((s) => s.status >= 200 && s.status < 300)).toBe(true);
      expect(before.every((s) => s.status >= 200 && s.status < 300)).toBe(true);

      // Every acknowledged write is stored.
      const names = [...run.acknowledged];
      const found = await query<{ name: string }>(url, 'select name from project where name like $1', [`w-${fault}-%`]);
      const stored = new Set(found.map((row) => row.name));
      const lost = names.filter((name) => !stored.has(name));
      expect(lost).toEqual([]);
      expect(names.length).toBeGreaterThan(50);

      report({
        scenario: `PostgreSQL ${label} under load`,
        load: `${CLIENTS} clients, closed loop, POST /projects and GET /projects?limit=5 alternately`,
        fault: `${outageS} s outage from ${Math.round(faultAt / 100) / 10} s`,
        durationS: loadS,
        answers: { before: byStatus(before), during: byStatus(during), after: byStatus(after) },
        writes: { acknowledged: names.length, found: names.length - lost.length, foundNotAcknowledged: stored.size - (names.length - lost.length) },
        notes: [
          `slowest answer during the outage ${Math.round(Math.max(0, ...during.map((s) => s.ms)))} ms`,
          `/health during: ${run.healthDuring.status} ${JSON.stringify(run.healthDuring.body)}`,
        ],
      });
    });
  }
});
