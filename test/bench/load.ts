import autocannon, { type RawResult, type RequestSpec } from 'autocannon';

/** One measured workload against one server. Latencies in milliseconds (autocannon: whole ms). */
export interface Measured {
  label: string;
  connections: number;
  seconds: number;
  /** 2xx responses per second. */
  rps: number;
  p50: number;
  p99: number;
  max: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: string;
  /** Server CPU (user + system, from the server's process.cpuUsage) per response, in ms; when measured. */
  cpuPerRequestMs?: number;
  /** The CPU of the server's PostgreSQL backends per response, in ms; when measured. */
  databaseCpuPerRequestMs?: number;
}

export interface CannonOptions {
  label: string;
  url: string;
  connections: number;
  seconds: number;
  requests: RequestSpec[];
  /** Seconds before a request counts as timed out. */
  timeout?: number;
  /** Receives the number of responses completed in each second of the run. */
  ticks?: number[];
}

/** Merges the runs of one workload on one server (e.g. the halves of an interleaved run). */
export function summarize(label: string, url: string, connections: number, results: RawResult[], override: { rps?: number } = {}): Measured {
  const sum = (pick: (r: RawResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  const seconds = sum((r) => r.duration);
  const ok = sum((r) => r['2xx']);
  const counts = new Map<string, number>();
  for (const r of results) for (const [code, { count }] of Object.entries(r.statusCodeStats)) counts.set(code, (counts.get(code) ?? 0) + count);
  // Last: aggregateResult adds the other runs' status counts into the first run's.
  const merged = autocannon.aggregateResult(results, { url, connections });
  return {
    label,
    connections,
    seconds,
    rps: override.rps ?? ok / seconds,
    p50: merged.latency.p50,
    p99: merged.latency.p99,
    max: merged.latency.max,
    ok,
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statuses: [...counts].map(([code, count]) => `${code}×${count}`).join(' '),
  };
}

/** One autocannon run; `skipAggregateResult` keeps the raw histograms so runs can be merged. */
export async function cannon(options: CannonOptions): Promise<RawResult> {
  const instance = autocannon({
    url: options.url,
    connections: options.connections,
    duration: options.seconds,
    timeout: options.timeout ?? 10,
    requests: options.requests,
    skipAggregateResult: true,
    title: options.label,
  });
  const ticks = options.ticks;
  if (ticks) instance.on('tick', ({ counter }) => ticks.push(counter));
  return instance;
}

/** GET `path` with the session cookie cycled over every token, one token per request. */
export function cookieCycle(path: string, cookieName: string, tokens: readonly string[]): RequestSpec[] {
  let next = 0;
  const cookies = tokens.map((token) => `${cookieName}=${token}`);
  return [
    {
      method: 'GET',
      path,
      setupRequest: (req) => {
        req.headers.cookie = cookies[next++ % cookies.length]!;
        return req;
      },
    },
  ];
}

/**
 * POST /auth/login with a valid email/password, cycling over the users. Each request comes from
 * its own client address (X-Forwarded-For, which the app trusts with one proxy hop), as many
 * users behind the load balancer would: the per-IP limit of 5 logins per 15 minutes stays out
 * of the way.
 */
export function loginCycle(emails: readonly string[], password: string): RequestSpec[] {
  let next = 0;
  const bodies = emails.map((email) => JSON.stringify({ email, password }));
  return [
    {
      method: 'POST',
      path: '/auth/login',
      headers: { 'content-type': 'application/json' },
      setupRequest: (req) => {
        const n = next++;
        req.body = bodies[n % bodies.length]!;
        req.headers['x-forwarded-for'] = `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
        return req;
      },
    },
  ];
}

/**
 * Waits until `url` answers /ping quickly three times in a row (max `maxMs`): logins still being
 * hashed after their client went away would otherwise leak into the next measurement.
 */
export async function settle(url: string, maxMs = 60_000): Promise<number> {
  const started = performance.now();
  let quick = 0;
  while (quick < 3 && performance.now() - started < maxMs) {
    const t0 = performance.now();
    try {
      const res = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(maxMs) });
      await res.arrayBuffer();
      quick = performance.now() - t0 < 25 ? quick + 1 : 0;
    } catch {
      quick = 0;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return (performance.now() - started) / 1000;
}
