/**
 * The access log's CPU per line, in one process: `ACCESS_LINES` (200,000) access lines written by
 * `accessLog` through the app's logger to a real file, `ACCESS_BATCH` lines per turn of the
 * event loop (as a server writes several requests' lines per wake-up under load), the process's
 * own `process.cpuUsage()` (all its threads: the libuv pool's writes, V8's GC helpers) from the
 * first line until every line is on disk, divided by the number of lines. GC is included: the
 * run's scavenges and major GCs are counted and printed. Each destination set-up is run in turn,
 * `ACCESS_ROUNDS` times, interleaved, so a busy machine shifts them all alike.
 *
 *   npx tsx test/bench/access-log.bench.ts          ACCESS_ONLY=app   ACCESS_BATCH=1
 */
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import type { Context } from 'koa';
import { pino, type Logger } from 'pino';
import { createLogger, flushLogs, jsonLinesDestination } from '../../app/logging';
import { accessLog } from '../../app/http/middleware/request-context';
import { clientIpResolver } from '../../app/http/client-ip';

const LINES = Number(process.env.ACCESS_LINES ?? 200_000);
const BATCH = Number(process.env.ACCESS_BATCH ?? 8);
const ROUNDS = Number(process.env.ACCESS_ROUNDS ?? 3);

/** How each set-up makes its logger writing to `file`. */
const SETUPS: Record<string, (file: string) => { logger: Logger; fd?: number }> = {
  /** What `npm start` uses (`jsonLinesDestination`), on the file instead of stdout. */
  app: (file) => {
    const fd = openSync(file, 'a');
    return { logger: createLogger('info', jsonLinesDestination(fd)), fd };
  },
  /** pino's default destination: a `write` per line. */
  'sonic sync': (file) => ({ logger: createLogger('info', pino.destination({ dest: file, sync: true })) }),
  /** What `npm start` used before: sonic-boom, asynchronous writes on the libuv pool, no `minLength`. */
  'sonic async': (file) => ({ logger: createLogger('info', pino.destination({ dest: file, sync: false })) }),
  /** The same, written once 4 KB are buffered or every 100 ms: an idle server's line waits. */
  'sonic async 4k': (file) => ({ logger: createLogger('info', pino.destination({ dest: file, sync: false, minLength: 4096, periodicFlush: 100 })) }),
  /** No destination at all: the cost of the line's JSON and of the turns of the loop. */
  null: (file) => {
    writeFileSync(file, ''.padEnd(20_000 + LINES, '\n'));
    return { logger: createLogger('info', { write: () => {} }) };
  },
};

const ctxFor = (i: number) =>
  ({
    method: 'GET',
    path: '/projects',
    status: 200,
    state: { caller: { kind: 'user', userId: 1_000 + (i % 200) } },
    req: { socket: { remoteAddress: '127.0.0.1' }, headers: {} },
    get: () => '',
  }) as unknown as Context;

const clientIp = clientIpResolver(0);
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function run(name: string, dir: string): Promise<{ usPerLine: number; scavenges: number; majors: number }> {
  const file = join(dir, `${name.replace(/\W+/g, '-')}-${Date.now()}.log`);
  const { logger, fd } = SETUPS[name]!(file);
  const writeAccessLine = accessLog(logger, clientIp);
  const ctxs = Array.from({ length: 200 }, (_, i) => ctxFor(i));
  let scavenges = 0;
  let majors = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) scavenges++;
      else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) majors++;
    }
  });
  await nextTurn();
  // Warm-up: V8 compiles the path before the counted lines.
  for (let i = 0; i < 20_000; i++) {
    writeAccessLine(ctxs[i % 200]!, 'warm-up', performance.now());
    if (i % BATCH === 0) await nextTurn();
  }
  flushLogs(logger);
  observer.observe({ entryTypes: ['gc'] });
  const before = process.cpuUsage();
  for (let i = 0; i < LINES; i++) {
    writeAccessLine(ctxs[i % 200]!, `3f1d9a2e-7a7b-4d8c-9e0f-${String(i).padStart(12, '0')}`, performance.now());
    if (i % BATCH === BATCH - 1) await nextTurn();
  }
  flushLogs(logger);
  const used = process.cpuUsage(before);
  await nextTurn();
  observer.disconnect();
  if (fd !== undefined) closeSync(fd);
  const text = readFileSync(file, 'utf8');
  let lines = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  if (lines !== 20_000 + LINES) throw new Error(`${name}: ${lines} lines on disk, ${20_000 + LINES} written`);
  return { usPerLine: (used.user + used.system) / LINES, scavenges, majors };
}

async function main(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'access-log-'));
  const only = process.env.ACCESS_ONLY?.split(',');
  const names = Object.keys(SETUPS).filter((n) => !only || only.includes(n));
  const results = new Map<string, number[]>(names.map((n) => [n, []]));
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (const name of names) {
        const r = await run(name, dir);
        results.get(name)!.push(r.usPerLine);
        process.stdout.write(`round ${round + 1} ${name.padEnd(14)} ${r.usPerLine.toFixed(2)} µs/line  scavenges ${r.scavenges}  major GCs ${r.majors}\n`);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  for (const [name, values] of results) {
    const sorted = [...values].sort((a, b) => a - b);
    process.stdout.write(`${name.padEnd(14)} median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} µs/line (${values.map((v) => v.toFixed(2)).join(', ')}), batch ${BATCH}\n`);
  }
}

await main();
