import { Agent, request as httpRequest } from 'node:http';
import type { Measured } from './load';

/** Latencies of back-to-back requests on one keep-alive connection, in milliseconds. */
export interface Samples {
  latencies: number[];
  /** Answers that were not 200 with the expected number of items. */
  wrong: number;
  seconds: number;
}

export interface SequentialClient {
  /** Requests for `seconds` (after `warmup` untimed ones), adding to `into`. */
  run(seconds: number, into: Samples, warmup?: number): Promise<void>;
  close(): void;
}

/** Whether an answer is the right one. */
export type Check = (status: number, body: string) => boolean;

export const listOf = (items: number): Check => (status, body) => status === 200 && (JSON.parse(body) as unknown[]).length === items;

/**
 * One client, one connection, timed here with sub-millisecond resolution (autocannon rounds to
 * 1 ms). The last request is always awaited and counted: a stalled one is never left out.
 */
export function sequentialClient(url: string, path: string, headers: Record<string, string>, check: Check): SequentialClient {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = () =>
    new Promise<boolean>((resolve, reject) => {
      const req = httpRequest(`${url}${path}`, { agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve(check(res.statusCode ?? 0, Buffer.concat(chunks).toString('utf8'))));
        res.on('error', reject);
      });
      req.setTimeout(60_000, () => req.destroy(new Error(`GET ${path} timed out`)));
      req.on('error', reject);
      req.end();
    });
  return {
    async run(seconds, into, warmup = 0) {
      for (let i = 0; i < warmup; i++) await get();
      const started = performance.now();
      const end = started + seconds * 1000;
      while (performance.now() < end) {
        const t0 = performance.now();
        const ok = await get();
        into.latencies.push(performance.now() - t0);
        if (!ok) into.wrong++;
      }
      into.seconds += (performance.now() - started) / 1000;
    },
    close: () => agent.destroy(),
  };
}

export const emptySamples = (): Samples => ({ latencies: [], wrong: 0, seconds: 0 });

export function fromSamples(label: string, samples: Samples): Measured {
  const sorted = [...samples.latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  const ok = sorted.length - samples.wrong;
  return {
    label, connections: 1, seconds: samples.seconds, rps: ok / samples.seconds, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? NaN,
    ok, non2xx: samples.wrong, errors: 0, timeouts: 0,
    statuses: samples.wrong ? `${samples.wrong} wrong answers of ${sorted.length}` : `200×${sorted.length}`,
  };
}
