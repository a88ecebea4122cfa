/**
 * What the young generation keeps: the app and the floor as children under `--trace-gc-nvp`, W1
 * for a warm-up at 50 connections, then GC_SECONDS at GC_CONNS connections (default 1: at most one
 * request in flight, so anything that survives a scavenge outlives its request). Prints, per
 * scavenge, the bytes promoted to the old generation and the bytes allocated, and the requests
 * between scavenges. A healthy server promotes next to nothing at one connection; steady
 * promotion there means per-request objects are kept alive past their request (by something
 * long-lived, or by dead old objects pointing at them), which costs scavenge time on every request.
 *
 *   npx tsx test/bench/gc-survival.ts     GC_CONNS=1 GC_SECONDS=6 GC_WHICH=app,floor GC_PATH=/projects
 *                                         GC_FLAGS='<node flags>' GC_ENV='{"APP_LOG_LEVEL":"info"}' GC_SHOW=1
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../app/config/config';
import { freePort, startServerChild } from './children';
import { atCleanUp, runBench } from './lifecycle';
import { cannon, cookieCycle } from './load';
import { seedBenchDatabase } from './seed';

const CONNECTIONS = Number(process.env.GC_CONNS ?? 1);
const SECONDS = Number(process.env.GC_SECONDS ?? 6);
const PATH = process.env.GC_PATH ?? '/projects';

/** One `--trace-gc-nvp` line's numeric field. */
const field = (line: string, key: string) => Number(new RegExp(`[ \\t]${key}=([\\d.]+)`).exec(line)?.[1] ?? 0);

runBench(
  'gc-survival',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tk-gc-'));
    atCleanUp(() => rm(dir, { recursive: true, force: true }));
    const data = await seedBenchDatabase(4, []);
    const cookieName = loadConfig({}).config.sessionCookieName;
    for (const which of (process.env.GC_WHICH ?? 'app,floor').split(',')) {
      const port = await freePort();
      const logFile = join(dir, `${which}.log`);
      const child = await startServerChild({
        name: which,
        entry: which === 'app' ? 'app/main.ts' : 'test/bench/baseline-server.ts',
        port,
        env: { APP_DATABASE_URL: data.url, BENCH_DATABASE_URL: data.url, APP_LOG_LEVEL: 'warn', APP_PORT: String(port), BENCH_PORT: String(port), ...(JSON.parse(process.env.GC_ENV ?? '{}') as Record<string, string>) },
        logFile,
        nodeFlags: ['--trace-gc-nvp', ...(process.env.GC_FLAGS ?? '').split(' ').filter(Boolean)],
        readyPath: '/ping',
      });
      atCleanUp(() => child.stop());
      const load = (connections: number, seconds: number) => cannon({ label: which, url: child.url, connections, seconds, requests: cookieCycle(PATH, cookieName, data.tokens) });
      await load(50, 4);
      const mark = (await readFile(logFile, 'utf8')).length;
      const before = await child.cpuUsage();
      const result = await load(CONNECTIONS, SECONDS);
      const after = await child.cpuUsage();
      const cpu = (after.user + after.system - before.user - before.system) / result['2xx'];
      const scavenges = (await readFile(logFile, 'utf8')).slice(mark).split('\n').filter((line) => / gc=s /.test(line));
      const perScavenge = (key: string) => scavenges.reduce((sum, line) => sum + field(line, key), 0) / Math.max(1, scavenges.length) / 1e6;
      console.log(
        `${which}: ${result['2xx']} requests at ${CONNECTIONS} connection(s), ${cpu.toFixed(0)} µs CPU per request, ${scavenges.length} scavenges; per scavenge: promoted ${perScavenge('promoted').toFixed(2)} MB, ` +
          `allocated ${perScavenge('allocated').toFixed(1)} MB, pause ${(perScavenge('pause') * 1e6).toFixed(1)} ms; ${(result['2xx'] / Math.max(1, scavenges.length)).toFixed(0)} requests per scavenge`,
      );
      if (process.env.GC_SHOW) console.log(scavenges.slice(-2).join('\n'));
      await child.stop();
    }
  },
  10 * 60_000,
);
