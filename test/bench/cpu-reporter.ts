import { writeFileSync } from 'node:fs';
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
    // A sample every 8 KiB on average: a copilot call's ~250 KB is about 30 samples.
    inspector.post('HeapProfiler.startSampling', { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
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
  else if (typeof message === 'object' && message !== null && 'logLevel' in message) {
    for (const logger of loggers) logger.level = String(message.logLevel);
    process.send?.({ logLevel: String(message.logLevel), loggers: loggers.length, cpuUsage: process.cpuUsage() });
  }
});
process.channel?.unref();
