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
/** With PERF_CALLERS=1: call graphs, and every sample charged to the nearest JavaScript function on its stack. */
const CALLERS = process.env.PERF_CALLERS === '1';

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
  if (process.env.PERF_MODE === 'counts') return counts(child, load);
  const out = join(dir, `${child.name}.perf`);
  const before = await child.cpuUsage();
  const [result] = await Promise.all([load(SECONDS), run('perf', ['record', ...(CALLERS ? ['-g'] : []), '-F', '1999', '-p', String(child.process.pid), '-o', out, '--', 'sleep', String(SECONDS)], { maxBuffer: 1 << 26 })]);
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
  if (CALLERS) await callers(out, perRequest);
}

/**
 * PERF_MODE=ab: CPU per request of the app and the floor as they are, and of each again with the
 * node flags of PERF_AB_FLAGS, in turns of PERF_SECONDS (4 rounds, the order reversed every other
 * round), each child reporting its own CPU: a flag's effect on both, measured side by side.
 */
async function abTurns(url: string, cookieName: string, tokens: string[], dir: string, app: ServerChild, floor: ServerChild): Promise<void> {
  const flags = (process.env.PERF_AB_FLAGS ?? '').split(' ').filter(Boolean);
  const appFlagged = await start('app+flags', 'app/main.ts', { APP_DATABASE_URL: url, APP_LOG_LEVEL: process.env.PERF_LOG_LEVEL ?? 'warn' }, dir, flags);
  const floorFlagged = await start('floor+flags', 'test/bench/baseline-server.ts', { BENCH_DATABASE_URL: url }, dir, flags);
  const children = [app, appFlagged, floor, floorFlagged];
  const totals = new Map(children.map((c) => [c.name, { cpu: 0, requests: 0 }]));
  const turn = (child: ServerChild, seconds: number) => cannon({ label: child.name, url: child.url, connections: 50, seconds, requests: cookieCycle('/projects', cookieName, tokens) });
  for (const child of children) await turn(child, 3);
  for (let round = 0; round < 4; round += 1) {
    for (const child of round % 2 === 0 ? children : [...children].reverse()) {
      const before = await child.cpuUsage();
      const result = await turn(child, SECONDS / 2);
      const after = await child.cpuUsage();
      const total = totals.get(child.name)!;
      total.cpu += after.user + after.system - before.user - before.system;
      total.requests += result['2xx'];
    }
  }
  console.log(`flags: ${flags.join(' ')}`);
  for (const [name, { cpu, requests }] of totals) console.log(`${name.padEnd(12)} ${(cpu / requests).toFixed(0).padStart(5)} µs CPU per request, ${requests} requests`);
}

/**
 * PERF_MODE=counts: what a busy machine does not change, per request: the kernel's software
 * events (page faults, context switches) from `perf stat`, then the system calls from
 * `strace -c` (which slows the process down, but not what each request asks of the kernel).
 */
async function counts(child: ServerChild, load: (seconds: number) => Promise<{ '2xx': number }>): Promise<void> {
  const pid = String(child.process.pid);
  const [stat, statStderr] = await Promise.all([
    load(SECONDS),
    run('perf', ['stat', '-e', 'task-clock,page-faults,context-switches,cpu-migrations', '-p', pid, '--', 'sleep', String(SECONDS)]).then((r) => r.stderr),
  ]);
  console.log(`\n## ${child.name}: ${stat['2xx']} requests under perf stat`);
  for (const line of statStderr.split('\n')) {
    const m = /^\s*([\d,.]+)\s+(?:msec\s+)?(task-clock|page-faults|context-switches|cpu-migrations)/.exec(line);
    if (m) console.log(`${(Number(m[1]!.replace(/,/g, '')) / stat['2xx']).toFixed(3).padStart(10)} ${m[2]} per request`);
  }
  const [traced, straceOut] = await Promise.all([
    load(SECONDS),
    run('timeout', ['-s', 'INT', String(SECONDS), 'strace', '-c', '-f', '-p', pid], { maxBuffer: 1 << 24 }).then(
      (r) => r.stderr,
      (e: { stderr?: string }) => e.stderr ?? '',
    ),
  ]);
  console.log(`${traced['2xx']} requests under strace -c; system calls per request:`);
  for (const line of straceOut.split('\n')) {
    const m = /^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$/.exec(line);
    if (m && Number(m[1]) / traced['2xx'] >= 0.01) console.log(`${(Number(m[1]) / traced['2xx']).toFixed(2).padStart(8)}  ${m[2]}`);
  }
}

/**
 * Each sample charged to the innermost JavaScript function on its stack (what called the
 * builtin, the C++, the syscall or the GC the sample fell in), grouped by function: the cost of
 * a JavaScript function with everything below it that is not itself JavaScript.
 */
async function callers(file: string, perRequest: number): Promise<void> {
  const { stdout } = await run('perf', ['script', '-i', file, '-F', 'ip,sym,dso'], { maxBuffer: 1 << 30 });
  const byFunction = new Map<string, number>();
  const grep = process.env.PERF_GREP ? new RegExp(process.env.PERF_GREP) : undefined;
  const stacks = new Map<string, number>();
  let samples = 0;
  for (const block of stdout.split(/\n\s*\n/)) {
    const frames = block.split('\n').map((l) => /^\s*[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$/.exec(l)).filter((m) => m !== null);
    if (frames.length === 0) continue;
    samples += 1;
    if (grep && frames.some((f) => grep.test(f[1]!))) {
      const stack = frames.slice(0, 14).map((f) => f[1]!.replace(/^JS:[*~^+]?'?/, '').slice(0, 90)).join('\n    <- ');
      stacks.set(stack, (stacks.get(stack) ?? 0) + 1);
    }
    const leaf = frames[0]!;
    const gc = bucket(leaf[2]!, leaf[1]!) === 'V8 GC' || frames.some((f) => /Heap::CollectGarbage|Heap::Scavenge|ScavengerCollector/.test(f[1]!));
    const js = frames.find((f) => f[2]!.startsWith('[JIT]') || f[2]!.includes('perf-'));
    const where = js ? js[1]!.replace(/^JS:[*~^+]?'?/, '').replace(/file:\/\/\/work\/[^/]+\/[^/]+\//, '').replace(/\/work\/[^/]+\/[^/]+\/node_modules\//, '') : `(no JS frame) ${bucket(leaf[2]!, leaf[1]!)}`;
    const key = `${gc ? '[GC] ' : ''}${where}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + 1);
  }
  for (const [stack, count] of [...stacks].sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log(`${count} samples:\n    ${stack}`);
  console.log(`charged to the innermost JavaScript function (${samples} samples), µs per request:`);
  for (const [key, count] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, TOP * 2)) {
    console.log(`${((count / samples) * perRequest).toFixed(1).padStart(7)}  ${key.slice(0, 150)}`);
  }
}

runBench(
  'perf-w1',
  async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tk-perf-'));
    if (process.env.PERF_KEEP !== "1") atCleanUp(() => rm(dir, { recursive: true, force: true }));
    else console.log(`logs kept in ${dir}`);
    const data = await seedBenchDatabase(4, []);
    const cookieName = loadConfig({}).config.sessionCookieName;
    const app = await start('app', 'app/main.ts', { APP_DATABASE_URL: data.url, APP_LOG_LEVEL: process.env.PERF_LOG_LEVEL ?? 'warn' }, dir, (process.env.PERF_APP_FLAGS ?? '').split(' ').filter(Boolean));
    const floor = await start('floor', 'test/bench/baseline-server.ts', { BENCH_DATABASE_URL: data.url }, dir, (process.env.PERF_FLOOR_FLAGS ?? '').split(' ').filter(Boolean));
    if (process.env.PERF_MODE === 'ab') return abTurns(data.url, cookieName, data.tokens, dir, app, floor);
    for (const child of [app, floor]) await profile(child, cookieName, data.tokens, dir);
  },
  10 * 60_000,
);
