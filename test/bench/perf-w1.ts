/**
 * Where W1's CPU goes, native code, garbage collection and the kernel included: the app and the
 * floor as children under `node --perf-basic-prof`, W1 (50 connections) for a warm-up, then
 * `perf record` (software cpu-clock sampling: no hardware counters in these VMs) attached to
 * each process in turn while the load runs. Prints each server's samples grouped by where they
 * fell (JavaScript by package, V8's GC, V8 and Node's C++, libc, the kernel) and the top symbols.
 *
 *   npx tsx test/bench/perf-w1.ts            PERF_SECONDS=10, PERF_LOG_LEVEL=warn, PERF_TOP=40
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../app/config/config';
import { freePort, startServerChild, type ServerChild } from './children';
import { atCleanUp, runBench } from './lifecycle';
import { cannon, cookieCycle } from './load';
import { seedBenchDatabase } from './seed';

const run = promisify(execFile);
const SECONDS = Number(process.env.PERF_SECONDS ?? 10);
const TOP = Number(process.env.PERF_TOP ?? 40);

async function start(name: string, entry: string, env: Record<string, string>, dir: string, flags: string[] = []): Promise<ServerChild> {
  const port = await freePort();
  const child = await startServerChild({
    name,
    entry,
    port,
    env: { ...env, APP_PORT: String(port), BENCH_PORT: String(port) },
    logFile: join(dir, `${name}.log`),
    nodeFlags: ['--perf-basic-prof-only-functions', '--interpreted-frames-native-stack', ...flags],
    readyPath: '/ping',
  });
  atCleanUp(() => child.stop());
  return child;
}

function bucket(dso: string, sym: string): string {
  if (dso.includes('kernel')) return 'kernel';
  if (/^(Scavenge|Mark|Sweep|Heap|Evacuat|Concurrent|Minor|Worklist|Marking|ObjectMarking|Cppgc)|Scaveng|GC|Marking|Sweeper|Evacuat|::Heap::|heap::/.test(sym)) return 'V8 GC';
  if (dso.startsWith('perf-') || dso.includes('.map') || dso.startsWith('[JIT]')) {
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(sym);
    if (m) return `JS ${m[1]}`;
    if (/node:|internal\//.test(sym)) return 'JS node internals';
    if (/\/work\//.test(sym)) return 'JS app';
    if (/^(Builtin|Bytecode|Stub|Handler|RegExp)/.test(sym)) return 'V8 builtins';
    return 'JS other';
  }
  if (dso.includes('libc')) return 'libc';
  if (dso === 'node' || dso.endsWith('/node')) return 'node/V8 C++';
  return dso;
}

async function profile(child: ServerChild, cookieName: string, tokens: string[], dir: string): Promise<void> {
  const load = (seconds: number) => cannon({ label: child.name, url: child.url, connections: 50, seconds, requests: cookieCycle('/projects', cookieName, tokens) });
  await load(4);
  const out = join(dir, `${child.name}.perf`);
  const before = await child.cpuUsage();
  const [result] = await Promise.all([load(SECONDS), run('perf', ['record', '-F', '1999', '-p', String(child.process.pid), '-o', out, '--', 'sleep', String(SECONDS)], { maxBuffer: 1 << 26 })]);
  const after = await child.cpuUsage();
  const requests = result['2xx'];
  const cpu = after.user + after.system - before.user - before.system;
  const { stdout } = await run('perf', ['report', '-i', out, '--no-children', '--sort', 'dso,sym', '--stdio', '-g', 'none', '--percent-limit', '0'], { maxBuffer: 1 << 28 });
  const groups = new Map<string, number>();
  const top: string[] = [];
  for (const line of stdout.split('\n')) {
    const m = /^\s+([\d.]+)%\s+(.+?)\s+\[[.k]\]\s+(.*)$/.exec(line);
    if (!m) continue;
    const pct = Number(m[1]);
    const key = bucket(m[2]!, m[3]!);
    groups.set(key, (groups.get(key) ?? 0) + pct);
    if (top.length < TOP) top.push(`${pct.toFixed(2).padStart(6)}%  ${m[2]}  ${m[3]!.slice(0, 140)}`);
  }
  const perRequest = cpu / requests;
  console.log(`\n## ${child.name}: ${requests} requests in ${SECONDS} s, ${perRequest.toFixed(0)} µs CPU per request`);
  for (const [key, pct] of [...groups].sort((a, b) => b[1] - a[1])) console.log(`${pct.toFixed(1).padStart(6)}%  ${((pct / 100) * perRequest).toFixed(1).padStart(6)} µs  ${key}`);
  console.log('top symbols:');
  for (const line of top) console.log(line);
}

runBench(
  'perf-w1',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tk-perf-'));
    atCleanUp(() => rm(dir, { recursive: true, force: true }));
    const data = await seedBenchDatabase(4, []);
    const cookieName = loadConfig({}).config.sessionCookieName;
    const app = await start('app', 'app/main.ts', { APP_DATABASE_URL: data.url, APP_LOG_LEVEL: process.env.PERF_LOG_LEVEL ?? 'warn' }, dir, (process.env.PERF_APP_FLAGS ?? '').split(' ').filter(Boolean));
    const floor = await start('floor', 'test/bench/baseline-server.ts', { BENCH_DATABASE_URL: data.url }, dir, (process.env.PERF_FLOOR_FLAGS ?? '').split(' ').filter(Boolean));
    for (const child of [app, floor]) await profile(child, cookieName, data.tokens, dir);
  },
  10 * 60_000,
);
