/**
 * Measures candidate fixes before anyone makes them: the app with bench-only patches
 * (test/bench/experiments/) against the app as it is and the raw baseline, on one database.
 * W1 for lean reads (constant SQL instead of knex builder chains), W1 during logins for bcrypt in
 * worker threads. Writes the "Candidate fixes" section of docs/benchmarks.md.
 *
 *   npx tsx test/bench/fixes.bench.ts        (BENCH_SCALE=0.3 for a smoke run)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RawResult } from 'autocannon';
import { loadConfig } from '../../app/config/config';
import { freePort, startServerChild, type ServerChild } from './children';
import { atCleanUp, runBench } from './lifecycle';
import { cannon, cookieCycle, summarize, type Measured } from './load';
import { MEASURED_HEADER, measuredRow, latency, pct, ratio, table, writeSection } from './report';
import { seedBenchDatabase, type BenchData } from './seed';
import { w1Reference, w1WithLogins, type Settings, type Target } from './workloads';

const SECTION = '## Candidate fixes, measured with bench-only patches (`npx tsx test/bench/fixes.bench.ts`)';
const ROUNDS = 3;
const ROUND_SECONDS = 4;

async function start(label: string, data: BenchData, dir: string, patches: string): Promise<ServerChild> {
  const port = await freePort();
  const entry = label === 'baseline' ? 'test/bench/baseline-server.ts' : 'test/bench/experiments/patched-main.ts';
  return startServerChild({
    name: label,
    entry,
    port,
    env: { APP_DATABASE_URL: data.url, APP_PORT: String(port), APP_LOG_LEVEL: 'warn', BENCH_PATCHES: patches, BENCH_DATABASE_URL: data.url, BENCH_PORT: String(port) },
    logFile: join(dir, `${label}.log`),
    readyPath: '/ping',
  });
}

/** W1 (50 connections) on every target: a warm-up each, then rounds in rotating order, merged. */
async function w1Rounds(targets: Target[], data: BenchData, settings: Settings): Promise<Measured[]> {
  const run = (t: Target, seconds: number) =>
    cannon({ label: t.label, url: t.url, connections: 50, seconds, requests: cookieCycle('/projects', settings.cookieName, data.tokens) });
  const seconds = Math.max(1, ROUND_SECONDS * settings.scale);
  for (const t of targets) await run(t, seconds);
  const runs = new Map<Target, RawResult[]>(targets.map((t) => [t, []]));
  for (let round = 0; round < ROUNDS; round++) {
    process.stderr.write(`  W1 round ${round + 1} of ${ROUNDS}\n`);
    for (let i = 0; i < targets.length; i++) {
      const t = targets[(i + round) % targets.length]!;
      runs.get(t)!.push(await run(t, seconds));
    }
  }
  return targets.map((t) => summarize(t.label, t.url, 50, runs.get(t)!));
}

async function main(): Promise<void> {
  const { config } = loadConfig(process.env);
  const settings: Settings = { cookieName: config.sessionCookieName, scale: Number(process.env.BENCH_SCALE ?? 1) };
  const data = await seedBenchDatabase(config.passwordHashCost);
  atCleanUp(() => data.drop());
  const dir = await mkdtemp(join(tmpdir(), 'tk-fixes-'));
  atCleanUp(() => rm(dir, { recursive: true, force: true }));
  const children: ServerChild[] = [];
  atCleanUp(() => Promise.all(children.map((c) => c.stop())));
  const variants: Array<[string, string]> = [['app', ''], ['app + lean reads (knex.raw)', 'lean-raw'], ['app + lean reads (pg connection)', 'lean-pg'], ['baseline', '']];
  children.push(...(await Promise.all(variants.map(([label, patches]) => start(label, data, dir, patches)))));
  const targets = children.map((c) => ({ label: c.name, url: c.url }));
  process.stderr.write('[fixes] W1\n');
  const w1 = await w1Rounds(targets, data, settings);
  for (const child of children.splice(1)) await child.stop();

  process.stderr.write('[fixes] W1 during logins\n');
  const hasher = await start('app + bcrypt in a worker thread', data, dir, 'worker-hasher');
  children.push(hasher);
  // Freshly started: warm it up like the others were.
  await cannon({ label: hasher.name, url: hasher.url, connections: 50, seconds: 3, requests: cookieCycle('/projects', settings.cookieName, data.tokens) });
  const stall: string[][] = [];
  for (const t of [targets[0]!, { label: hasher.name, url: hasher.url }]) {
    const alone = await w1Reference(t, data, settings);
    const mixed = await w1WithLogins(t, data, settings);
    const r = latency(mixed.w1UnderLogin, 'p99') / latency(alone.w1Alone, 'p99');
    stall.push(
      [t.label, ...measuredRow(alone.w1Alone).slice(3, 6), ...measuredRow(mixed.w1UnderLogin).slice(3, 6), ratio(r),
        measuredRow(mixed.loginUnderW1)[3]!, measuredRow(mixed.loginUnderW1)[5]!, `${measuredRow(alone.pingAlone)[6]} / ${measuredRow(mixed.pingUnderLogin)[6]}`],
    );
  }

  const base = w1.at(-1)!;
  const body = [
    `Run ${new Date().toISOString()}. The patches live in \`test/bench/experiments/\` and are applied to the production`,
    'classes\' prototypes in the app child only; nothing in app/, core/ or adapters/ is changed. Same database, same',
    `load as \`npm run bench\`; W1 is ${ROUNDS} rounds × ${ROUND_SECONDS} s per server in rotating order, merged.`,
    '',
    table([...MEASURED_HEADER, 'req/s vs baseline', 'p99 vs baseline'], w1.map((m) => [...measuredRow(m), pct(m.rps / base.rps), ratio(latency(m, 'p99') / latency(base, 'p99'))])),
    '',
    'W1 (30 connections) alone and while 20 connections log in:',
    '',
    table(['server', 'alone req/s', 'alone p50', 'alone p99', 'with logins req/s', 'p50', 'p99', 'p99 ratio (target ≤ 2×)', 'logins/s', 'login p99', '/ping max alone / with logins'], stall),
  ].join('\n');
  process.stdout.write(`${body}\n`);
  await writeSection(SECTION, body);
}

runBench('fixes', main, 6 * 60_000);
