/**
 * Where W1's time goes: the app (and the baseline, for comparison) run as children under
 * `node --cpu-prof` through one W1 run each; prints self time per function and per package and
 * writes the "W1 CPU profile" section of docs/benchmarks.md.
 *
 *   npx tsx test/bench/profile.ts          BENCH_PROFILE_LOG_LEVEL=info profiles the app logging every request
 *
 * BENCH_PROFILE_ALLOCATIONS=1 prints what each server allocates per request instead, by package
 * and by function (V8's sampling heap profiler over the measured run, what garbage collection
 * freed kept, no CPU profiler), and writes no section.
 */
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../app/config/config';
import { freePort, startServerChild } from './children';
import { atCleanUp, runBench } from './lifecycle';
import { allocationLines, summarizeAllocations, summarizeProfile, type AllocationProfile, type ProfileSummary } from './cpu-profile';
import { cannon, cookieCycle, summarize, type Measured } from './load';
import { num, ms, table, writeSection } from './report';
import { seedBenchDatabase, type BenchData } from './seed';

const SECTION = '## W1 CPU profile (`npx tsx test/bench/profile.ts`)';
const WARMUP_S = 3;
const SECONDS = Number(process.env.BENCH_PROFILE_SECONDS ?? 15);
const LOG_LEVEL = process.env.BENCH_PROFILE_LOG_LEVEL ?? 'warn';
const ALLOCATIONS = process.env.BENCH_PROFILE_ALLOCATIONS === '1';

interface Profiled {
  label: string;
  load: Measured;
  summary: ProfileSummary;
}

/** One server's W1 profile; null in the allocation mode, which prints what it found and has nothing to render. */
async function profileOne(label: string, entry: string, env: Record<string, string>, data: BenchData, cookieName: string, dir: string): Promise<Profiled | null> {
  const port = await freePort();
  const profileDir = join(dir, label);
  const spawned = performance.now();
  const child = await startServerChild({
    name: label,
    entry,
    port,
    env: { ...env, APP_PORT: String(port), BENCH_PORT: String(port) },
    logFile: join(dir, `${label}.log`),
    nodeFlags: ALLOCATIONS ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
    readyPath: '/ping',
  });
  try {
    const run = (seconds: number) =>
      cannon({ label, url: child.url, connections: 50, seconds, requests: cookieCycle('/projects', cookieName, data.tokens) });
    await run(WARMUP_S);
    const skipMs = performance.now() - spawned;
    process.stderr.write(`[profile] ${label}: W1 for ${SECONDS} s\n`);
    if (ALLOCATIONS) await child.startAllocationSampling();
    const load = summarize(label, child.url, 50, [await run(SECONDS)]);
    if (ALLOCATIONS) {
      const path = join(dir, `${label}.heapprofile`);
      await child.stopAllocationSampling(path);
      printAllocations(label, JSON.parse(await readFile(path, 'utf8')) as AllocationProfile, load.ok);
      return null;
    }
    await child.stop(15_000);
    // One file per thread (tsx's loader has its own): the main thread's is the largest.
    const files = (await readdir(profileDir)).filter((f) => f.endsWith('.cpuprofile'));
    const sizes = await Promise.all(files.map(async (f) => ({ f, size: (await stat(join(profileDir, f))).size })));
    const file = sizes.sort((a, b) => b.size - a.size)[0]?.f;
    if (!file) throw new Error(`${label} wrote no .cpuprofile (did it exit cleanly?)`);
    return { label, load, summary: await summarizeProfile(join(profileDir, file), skipMs) };
  } finally {
    await child.stop();
  }
}

function printAllocations(label: string, profile: AllocationProfile, requests: number): void {
  const summary = summarizeAllocations(profile, 40);
  const perRequest = (bytes: number) => `${(bytes / Math.max(1, requests) / 1024).toFixed(2)} KB/request`;
  process.stderr.write(`[profile] ${label}: ${perRequest(summary.bytes)} allocated (sampled) over ${requests} requests\n`);
  for (const line of allocationLines({ ...summary, packages: summary.packages.slice(0, 25) }, perRequest)) process.stderr.write(`[profile] ${line}\n`);
}

const share = (s: number) => `${(s * 100).toFixed(1)} %`;

function render(results: Profiled[]): string {
  const parts = [
    `Run ${new Date().toISOString()}: W1 (50 connections, ${SECONDS} s after a ${WARMUP_S} s warm-up) against each server under`,
    `\`node --cpu-prof\`; app at \`APP_LOG_LEVEL=${LOG_LEVEL}\`. Self time of the samples after the warm-up; shares are of busy`,
    '(non-idle) time of the server process only (PostgreSQL and the load generator are other processes).',
  ];
  for (const { label, load, summary } of results) {
    const perRequest = (summary.busyMs * 1000) / Math.max(1, load.ok);
    const writevMs = summary.functions.find((f) => f.name === 'writev')?.ms ?? 0;
    const jsPerRequest = ((summary.busyMs - writevMs) * 1000) / Math.max(1, load.ok);
    parts.push(
      '',
      `### ${label}: ${num(load.rps)} req/s, p99 ${ms(load.p99)}, ${summary.busyMs.toFixed(0)} ms busy / ${summary.idleMs.toFixed(0)} ms idle`,
      '',
      `About ${perRequest.toFixed(0)} µs of busy time per request, ${jsPerRequest.toFixed(0)} µs of it outside \`writev\` (socket writes: on`,
      'loopback they include delivering the data to the peer and, on 2 busy cores, waiting for the CPU the woken peer took).',
      '',
      table(
        ['package or file', 'self', 'share', '', 'on the stack (inclusive)', 'time', 'share'],
        summary.packages.slice(0, 15).map((p, i) => {
          const inc = summary.inclusivePackages[i];
          return [`\`${p.name}\``, `${p.ms.toFixed(0)} ms`, share(p.share), '', inc ? `\`${inc.name}\`` : '', inc ? `${inc.ms.toFixed(0)} ms` : '', inc ? share(inc.share) : ''];
        }),
      ),
      '',
      table(['function', 'self', 'share'], summary.functions.slice(0, 20).map((f) => [`\`${f.name}\``, `${f.ms.toFixed(0)} ms`, share(f.share)])),
    );
  }
  return parts.join('\n');
}

async function main(): Promise<void> {
  const { config } = loadConfig(process.env);
  const data = await seedBenchDatabase(config.passwordHashCost);
  atCleanUp(() => data.drop());
  const dir = await mkdtemp(join(tmpdir(), 'tk-profile-'));
  if (process.env.BENCH_PROFILE_KEEP) process.stderr.write(`[profile] profiles kept in ${dir}\n`);
  else atCleanUp(() => rm(dir, { recursive: true, force: true }));
  const app = await profileOne('app', process.env.BENCH_APP_ENTRY ?? 'app/main.ts', { APP_DATABASE_URL: data.url, APP_LOG_LEVEL: LOG_LEVEL }, data, config.sessionCookieName, dir);
  const baseline = await profileOne('baseline', 'test/bench/baseline-server.ts', { BENCH_DATABASE_URL: data.url }, data, config.sessionCookieName, dir);
  if (!app || !baseline) return;
  const body = render([app, baseline]);
  process.stdout.write(`${body}\n`);
  await writeSection(SECTION, body);
}

runBench('profile', main, 5 * 60_000);
