import { createRequire } from 'node:module';

/**
 * Preloaded into each benchmark server child (`--import`): answers the runner's `cpu-usage`
 * message with this process's `process.cpuUsage()`, so the runner can charge each server the CPU
 * it spent inside a measured window. The IPC channel is unref'd: it never keeps a server alive.
 *
 * With BENCH_COUNT_QUERIES=1 it also counts the statements the process sends to PostgreSQL
 * (every `pg` client's `query`: one round trip each, BEGIN and COMMIT included), for the benches
 * that report round trips per request; off by default, so the timed benches run unwrapped.
 */
let queries = 0;
if (process.env.BENCH_COUNT_QUERIES === '1') {
  const pg = createRequire(import.meta.url)('pg') as { Client: { prototype: { query: (...args: unknown[]) => unknown } } };
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function counted(this: unknown, ...args: unknown[]) {
    queries += 1;
    return query.apply(this, args);
  };
}

process.on('message', (message) => {
  if (message === 'cpu-usage') process.send?.({ cpuUsage: process.cpuUsage(), queries });
});
process.channel?.unref();
