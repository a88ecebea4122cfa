import diagnostics from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { ServerResponse } from 'node:http';
import { Session } from 'node:inspector';
import { createRequire } from 'node:module';

/**
 * Preloaded into each benchmark server child (`--import`): answers the runner's `cpu-usage`
 * message with this process's `process.cpuUsage()`, so the runner can charge each server the CPU
 * it spent inside a measured window, and its `{ logLevel }` message by setting that level on the
 * process's loggers (the access-log benchmark's turns at `info` and at `warn` in one process).
 * On `{ allocations: 'start' }` it starts V8's sampling heap profiler, keeping what garbage
 * collection frees, and on `{ allocations: <path> }` it writes the profile there and stops (the
 * copilot profile's allocation mode); nothing is sampled unless asked.
 * With BENCH_STAGES=1 it records when each copilot call passed each stage (`stageMarks`), and
 * answers `{ stages: 'read' }` with what it recorded since the last read.
 * The IPC channel is unref'd: it never keeps a server alive.
 *
 * With BENCH_COUNT_QUERIES=1 it also counts the statements the process sends to PostgreSQL
 * (every `pg` client's `query`: one round trip each, BEGIN and COMMIT included), for the benches
 * that report round trips per request; off by default, so the timed benches run unwrapped.
 */
const require = createRequire(import.meta.url);
let queries = 0;
if (process.env.BENCH_COUNT_QUERIES === '1') {
  const pg = require('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function counted(this: unknown, ...args: unknown[]) {
    queries += 1;
    return query.apply(this, args);
  };
}

/**
 * A copilot call's stages as this process sees them, each a time (`performance.now()`): a POST
 * request starting (`http.server.request.start`), each statement handed to a pg client
 * (`session`, `admission` for `ai_admit` or the floor's `ai_reserve`, `settle`) and its answer,
 * the model request made and its headers sent (undici's channels), the model's response headers,
 * and the first write of each response. Servers of different code are compared through the same
 * hooks, none of them the servers' own. Off by default: the timed benches run unwrapped.
 */
const stageMarks: Array<[string, number]> = [];
if (process.env.BENCH_STAGES === '1') {
  const mark = (stage: string) => stageMarks.push([stage, performance.now()]);
  diagnostics.subscribe('http.server.request.start', (message) => {
    if ((message as { request: { method?: string } }).request.method === 'POST') mark('request');
  });
  diagnostics.subscribe('undici:request:create', () => mark('model request made'));
  diagnostics.subscribe('undici:client:sendHeaders', () => mark('model request sent'));
  diagnostics.subscribe('undici:request:headers', () => mark('model answered'));
  const pg = require('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
  const query = pg.Client.prototype.query;
  const kindOf = (text: string) => (/ai_admit|ai_reserve/.test(text) ? 'admission' : /ai_settle/.test(text) ? 'settle' : /\bsession\b/.test(text) ? 'session' : null);
  pg.Client.prototype.query = function staged(this: unknown, ...args: unknown[]) {
    const [config] = args;
    const text = typeof config === 'string' ? config : ((config as { text?: string } | null)?.text ?? '');
    const kind = kindOf(text);
    if (kind) {
      mark(`${kind} sent`);
      const last = args.length - 1;
      const callback = args[last];
      if (typeof callback === 'function') {
        args[last] = function answered(this: unknown, ...results: unknown[]) {
          mark(`${kind} answered`);
          return (callback as (...a: unknown[]) => unknown).apply(this, results);
        };
      }
    }
    return query.apply(this, args);
  };
  const written = new WeakSet<object>();
  const write = ServerResponse.prototype.write;
  ServerResponse.prototype.write = function firstWrite(this: ServerResponse, ...args: Parameters<typeof write>) {
    if (!written.has(this)) {
      written.add(this);
      mark('first byte written');
    }
    return write.apply(this, args);
  } as typeof write;
}

/**
 * The loggers `pino(…)` has made in this process (not their children, which inherit the level).
 * pino sets a new logger's level through a method of the prototype every logger shares; wrapping
 * that method records each logger once, at its construction, and leaves logging itself untouched:
 * nothing here runs per line or per request.
 */
const loggers: Array<{ level: string }> = [];
{
  const pino = require('pino') as ((options: object, stream: object) => object) & { symbols: { setLevelSym: symbol } };
  const shared = Object.getPrototypeOf(Object.getPrototypeOf(pino({}, { write() {} }))) as Record<symbol, (this: { level: string }, level: unknown) => unknown>;
  const setLevel = shared[pino.symbols.setLevelSym]!;
  shared[pino.symbols.setLevelSym] = function recorded(this: { level: string }, level: unknown) {
    // For a logger `pino()` made, the shared prototype is its prototype's prototype; a child is
    // made from its parent, so the shared one is further up, and a child's level follows its
    // parent's unless it was given its own.
    if (Object.getPrototypeOf(Object.getPrototypeOf(this)) === shared && !loggers.includes(this)) loggers.push(this);
    return setLevel.call(this, level);
  };
  loggers.length = 0; // the probe logger above
}

/** The heap sampler's session, opened on the first `allocations` message. */
let inspector: Session | undefined;
function allocations(request: string): void {
  if (request === 'start') {
    inspector ??= new Session();
    inspector.connect();
    // A sample every 8 KiB on average: a copilot call's ~250 KB is about 30 samples. With
    // BENCH_ALLOCATIONS_PROMOTED=1 what a scavenge frees is left out: what remains is what
    // survived the young generation (promoted, then alive or freed by a mark-compact).
    const promotedOnly = process.env.BENCH_ALLOCATIONS_PROMOTED === '1';
    inspector.post('HeapProfiler.startSampling', { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: !promotedOnly });
    process.send?.({ allocations: 'start' });
    return;
  }
  inspector?.post('HeapProfiler.stopSampling', (error, result) => {
    if (!error) writeFileSync(request, JSON.stringify(result.profile));
    inspector?.disconnect();
    process.send?.({ allocations: request, error: error?.message });
  });
}

process.on('message', (message: unknown) => {
  if (typeof message === 'object' && message !== null && 'allocations' in message) allocations(String(message.allocations));
  else if (message === 'cpu-usage') process.send?.({ cpuUsage: process.cpuUsage(), queries });
  else if (typeof message === 'object' && message !== null && 'stages' in message) process.send?.({ stages: stageMarks.splice(0) });
  else if (typeof message === 'object' && message !== null && 'logLevel' in message) {
    for (const logger of loggers) logger.level = String(message.logLevel);
    process.send?.({ logLevel: String(message.logLevel), loggers: loggers.length, cpuUsage: process.cpuUsage() });
  }
});
process.channel?.unref();
