/**
 * `npm run bench:instructions`: CPU instructions per request, counted by valgrind's callgrind,
 * for the app and its floor. Unlike CPU time, an instruction count does not move with the
 * machine's load, so it can be taken on a busy shared machine and compared across runs.
 *
 * - W1 (authenticated `GET /projects`, 20 rows, cookies cycled over 200 sessions): the floor
 *   (test/bench/baseline-server.ts), the app at `warn` and the app at `info` (its access log to a
 *   file). Each server runs under callgrind; after WARMUP requests (so V8 has compiled the hot
 *   path) its counters are zeroed, REQUESTS requests are sent at CONNECTIONS connections, and the
 *   counters dumped. Instructions per request = the dump's total ÷ REQUESTS.
 * - The copilot (`POST /notes/{id}/copilot/improve` against the OpenAI fake in this process): the
 *   app and test/bench/copilot-floor-server.ts, with 200-delta and with one-delta answers; plus
 *   the PostgreSQL statements each sends per call (one round trip each).
 *
 * What it counts: every user-space instruction of the server process, all its threads (V8's
 * compiler and GC helpers included). What it does not: the kernel's side of system calls (socket
 * reads and writes), cache misses, and anything PostgreSQL does. Timers that run whatever the
 * traffic (the app's outbox poll every second) are measured over an idle window of the same
 * process and subtracted, pro rata of the measured window's length, since under valgrind a window
 * lasts ~50× longer than it would natively; both figures are printed. Each is also split into
 * garbage collection and the rest (`gcInstructions`): the collector's share comes in lumps that
 * a window of 2,000 requests does not average out, and the access log's info − warn difference is
 * read outside it.
 *
 * BENCH_INSTR_PROFILE=1 also prints each server's top functions by instructions per request, the
 * JavaScript ones named through V8's `--perf-basic-prof` map. Writes the "Instructions per
 * request" section of docs/benchmarks.md.
 *
 *   npm run bench:instructions        BENCH_INSTR_COPILOT=0 (W1 only)   BENCH_INSTR_PROFILE=1
 *   BENCH_INSTR_W1=0 (the copilot only)   BENCH_INSTR_COPILOT_ONLY=app|floor   BENCH_INSTR_WRITE=0 (print only)
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { loadConfig } from '../../app/config/config';
import { startOpenAiFake, type OpenAiFake } from '../fakes/openai-fake';
import { createTestDatabase } from '../support/postgres';
import { insertOrganization } from '../support/sessions';
import { freePort, startServerChild, type ServerChild } from './children';
import { memberWithNote, onUnlimitedAiPlan, type Caller } from './copilot-seed';
import { atCleanUp, runBench } from './lifecycle';
import { num, ratio, table, writeSection } from './report';
import { seedBenchDatabase, type BenchData } from './seed';

const SECTION = '## Instructions per request (`npm run bench:instructions`)';
const WARMUP = Number(process.env.BENCH_INSTR_WARMUP ?? 3_000);
const REQUESTS = Number(process.env.BENCH_INSTR_REQUESTS ?? 2_000);
const CONNECTIONS = 10;
const COPILOT_WARMUP = Number(process.env.BENCH_INSTR_COPILOT_WARMUP ?? 150);
const COPILOT_CALLS = Number(process.env.BENCH_INSTR_COPILOT_CALLS ?? 100);
/** BENCH_INSTR_COPILOT_CONNECTIONS: fewer under valgrind on a busy machine, where 10 calls at once starve the pool past its 2 s wait. */
const COPILOT_CONNECTIONS = Number(process.env.BENCH_INSTR_COPILOT_CONNECTIONS ?? 10);
const IDLE_SECONDS = 10;
const PROFILE = process.env.BENCH_INSTR_PROFILE === '1';
const PROFILE_TOP = 30;
/** BENCH_INSTR_ONLY=floor,app, warn (labels, comma-separated): W1 on those servers only, for a quick look. */
const ONLY = new Set((process.env.BENCH_INSTR_ONLY ?? 'floor,app, warn,app, info').split(/,(?! )/));
/**
 * BENCH_INSTR_LATE=1: callgrind instruments nothing until the warm-up is over (`--instr-atstart=no`,
 * then `callgrind_control -i on`): startup and warm-up run several times faster, which on a busy
 * machine is the difference between minutes and half an hour. The counted windows are the same.
 */
const LATE = process.env.BENCH_INSTR_LATE === '1';
/** BENCH_INSTR_W1=0: the copilot only (no W1 seed, no W1 servers), for a quick look at it. */
const W1 = process.env.BENCH_INSTR_W1 !== '0';
/** BENCH_INSTR_COPILOT_ONLY=app (or floor): the copilot on that server only, e.g. for an app before/after. */
const COPILOT_ONLY = process.env.BENCH_INSTR_COPILOT_ONLY;

/**
 * The app as `npm run start:prod` runs it (dist/server/main.js, built at the start): the same
 * code as `npm start`, but one bundle to load, which under valgrind starts in a fraction of
 * tsx's time (it compiles hundreds of modules at startup, each interpreted instruction by instruction).
 */
const BUILT_ENTRY = 'dist/server/main.js';
/** BENCH_INSTR_APP_ENTRY=<dir>/dist/server/main.js counts another build (an earlier commit's, for a before/after). */
const APP_ENTRY = process.env.BENCH_INSTR_APP_ENTRY ?? BUILT_ENTRY;

const step = (line: string) => process.stderr.write(`[instructions] ${line}\n`);
const exec = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One server under callgrind, and where its dumps go. */
interface Counted {
  child: ServerChild;
  label: string;
  outDir: string;
}

async function startCounted(label: string, entry: string, env: Record<string, string>, outDir: string): Promise<Counted> {
  const port = await freePort();
  const prefix = label.replace(/\W+/g, '-');
  const child = await startServerChild({
    name: label,
    entry,
    port,
    env: { ...env, BENCH_COUNT_QUERIES: '1', APP_PORT: String(port), BENCH_PORT: String(port) },
    logFile: join(outDir, `${prefix}.log`),
    readyPath: '/ping',
    readyTimeoutMs: 1_800_000, // under valgrind, on a busy machine, startup takes minutes
    nodeFlags: PROFILE ? ['--perf-basic-prof'] : [],
    runUnder: ['valgrind', '--tool=callgrind', '--cache-sim=no', '--branch-sim=no', ...(LATE ? ['--instr-atstart=no'] : []), `--callgrind-out-file=${join(outDir, prefix)}.%p`],
  });
  atCleanUp(() => child.stop(30_000));
  return { child, label, outDir };
}

/** Zeroes the process's counters (`callgrind_control -z`). */
const zero = (server: Counted) => exec('callgrind_control', ['-z', String(server.child.process.pid)]);

/** Dumps the counters since the last zero or dump; resolves with the dump file. */
async function dump(server: Counted): Promise<string> {
  const pid = server.child.process.pid!;
  const before = new Set(await readdir(server.outDir));
  await exec('callgrind_control', ['-d', String(pid)]);
  for (let waited = 0; waited < 60_000; waited += 200) {
    const fresh = (await readdir(server.outDir)).filter((f) => !before.has(f) && f.includes(`.${pid}.`));
    if (fresh.length > 0) return join(server.outDir, fresh[0]!);
    await sleep(200);
  }
  throw new Error(`${server.label}: callgrind wrote no dump`);
}

async function totalInstructions(file: string): Promise<number> {
  const text = await readFile(file, 'utf8');
  const line = /^(?:totals|summary): (\d+)/m.exec(text);
  if (!line) throw new Error(`${file}: no totals`);
  return Number(line[1]);
}

/**
 * V8's heap management by name: the collectors (scavenger, marking, sweeping, evacuation), the
 * heap's own functions, and the helpers they call by names of their own (the stack scan, the
 * object caches, joining a job's worker threads).
 */
const GC_FUNCTION = /Scaveng|Marking|MarkCompact|MarkSweep|Sweeper|Evacuat|v8::internal::Heap::|heap::base::|cppgc::|GCTracer|MemoryAllocator|MemoryReducer|RememberedSet|SlotSet|IteratePointers|HeapObject(?:Layout)?::SizeFromMap|PushAllRegistersAndIterateStack|IterateObjectCache|SerializerDeserializer::Iterate|ObjectVisitor::|RootVisitor|DefaultJob(?:State|Handle)::Join|MinorGCJob|IncrementalMarkingJob/;

/**
 * The instructions of a dump spent collecting garbage: the inclusive cost of every call from a
 * function outside `GC_FUNCTION` into one inside it (a collection, a marking or sweeping job on a
 * worker thread, an allocation's slow path). Garbage collection comes in lumps: a major one
 * (concurrent marking, sweeping) costs hundreds of thousands of instructions a request over a
 * window of 2,000, and whether one falls in a window moves the total by more than the access
 * log's whole line; the rest, "outside GC", is what the requests ran. A helper of the collector
 * that no name above catches would be counted twice: a small error, not a lump.
 */
async function gcInstructions(file: string): Promise<number> {
  const names = new Map<string, string>();
  let caller = '';
  let callee = '';
  let callCost = false;
  let gc = 0;
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    const named = /^(c?)fn=\((\d+)\)(?: (.*))?$/.exec(line);
    if (named) {
      if (named[3] !== undefined) names.set(named[2]!, named[3]);
      const name = names.get(named[2]!) ?? '';
      if (named[1] === 'c') callee = name;
      else caller = name;
      continue;
    }
    if (line.startsWith('calls=')) {
      callCost = true; // the next cost line is the call's inclusive cost
      continue;
    }
    if (!callCost || !/^[0-9+*-]/.test(line)) continue;
    callCost = false;
    if (GC_FUNCTION.test(callee) && !GC_FUNCTION.test(caller)) gc += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return gc;
}

/** `count` requests at `connections` connections, each answered in full; the answers' statuses. */
async function drive(url: string, count: number, connections: number, next: (i: number) => { method: string; path: string; headers: Record<string, string>; body?: string }): Promise<Map<number, number>> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const statuses = new Map<number, number>();
  let sent = 0;
  // A kept-alive socket the server closed as the request went out answers ECONNRESET before the
  // request was read: sent again on a fresh socket, as Node's documentation advises. Under
  // valgrind the servers' keep-alive timers fire late enough for this to happen in a run.
  const one = (i: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const spec = next(i);
      const req = request(`${url}${spec.path}`, { method: spec.method, headers: spec.headers, agent }, (res) => {
        res.on('data', () => undefined);
        res.once('end', () => {
          statuses.set(res.statusCode!, (statuses.get(res.statusCode!) ?? 0) + 1);
          resolve();
        });
        res.once('error', reject);
      });
      req.once('error', (error: NodeJS.ErrnoException) => (req.reusedSocket && error.code === 'ECONNRESET' ? one(i).then(resolve, reject) : reject(error)));
      req.end(spec.body);
    });
  const worker = async () => {
    while (sent < count) await one(sent++);
  };
  try {
    await Promise.all(Array.from({ length: connections }, worker));
  } finally {
    agent.destroy();
  }
  return statuses;
}

const describeStatuses = (statuses: Map<number, number>) => [...statuses].map(([s, n]) => `${s}×${n}`).join(' ');

interface Measurement {
  label: string;
  requests: number;
  /** All instructions of the measured window ÷ requests. */
  raw: number;
  /** The same, less the idle rate × the window's length. */
  net: number;
  /** Of `raw`, the garbage collector's (`gcInstructions`), ÷ requests. */
  gc: number;
  idlePerSecond: number;
  queriesPerRequest: number;
  statuses: string;
  profile?: Array<[string, number]>;
}

/** The process's instructions per second with no traffic (its timers), over IDLE_SECONDS. */
async function idleRate(server: Counted): Promise<number> {
  await zero(server);
  const started = performance.now();
  await sleep(IDLE_SECONDS * 1000);
  const file = await dump(server);
  const seconds = (performance.now() - started) / 1000;
  return (await totalInstructions(file)) / seconds;
}

/**
 * The idle rate is taken first, after the warm-up and a pause (so the warm-up's garbage
 * collection has finished), then the counted window.
 */
async function measure(server: Counted, count: number, work: () => Promise<Map<number, number>>): Promise<Measurement> {
  if (LATE) await exec('callgrind_control', ['-i', 'on', String(server.child.process.pid)]);
  await sleep(3_000);
  const idlePerSecond = await idleRate(server);
  await zero(server);
  const queriesBefore = await server.child.queries();
  const started = performance.now();
  const statuses = await work();
  const seconds = (performance.now() - started) / 1000;
  const file = await dump(server);
  const queries = (await server.child.queries()) - queriesBefore;
  const total = await totalInstructions(file);
  const result: Measurement = {
    label: server.label,
    requests: count,
    raw: total / count,
    net: (total - idlePerSecond * seconds) / count,
    gc: (await gcInstructions(file)) / count,
    idlePerSecond,
    queriesPerRequest: queries / count,
    statuses: describeStatuses(statuses),
  };
  if (PROFILE) result.profile = await profileOf(file, server.child.process.pid!, count);
  step(`${server.label}: ${num(result.net)} instructions per request (${num(result.raw)} before the idle rate, ${num(idlePerSecond)}/s idle; ${num(result.net - result.gc)} outside GC), ${result.queriesPerRequest.toFixed(2)} statements, ${result.statuses}, ${seconds.toFixed(0)} s`);
  return result;
}

/**
 * Self instructions per request by function: callgrind's names for native code, V8's perf map
 * (`/tmp/perf-<pid>.map`, written under --perf-basic-prof) for the JavaScript it compiled.
 */
async function profileOf(file: string, pid: number, count: number): Promise<Array<[string, number]>> {
  // Code space is reused: a later line for the same address names what runs there now.
  const byStart = new Map<number, { start: number; end: number; name: string }>();
  for (const line of (await readFile(`/tmp/perf-${pid}.map`, 'utf8').catch(() => '')).split('\n')) {
    const m = /^([0-9a-f]+) ([0-9a-f]+) (.*)$/.exec(line);
    if (m) byStart.set(parseInt(m[1]!, 16), { start: parseInt(m[1]!, 16), end: parseInt(m[1]!, 16) + parseInt(m[2]!, 16), name: shorten(m[3]!) });
  }
  const map = [...byStart.values()].sort((a, b) => a.start - b.start);
  const jsName = (address: number) => {
    let lo = 0;
    let hi = map.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const entry = map[mid]!;
      if (address < entry.start) hi = mid - 1;
      else if (address >= entry.end) lo = mid + 1;
      else return entry.name;
    }
    return '(unnamed generated code)';
  };
  const names = new Map<string, string>();
  const self = new Map<string, number>();
  let fn = '';
  let skipCost = false;
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    const named = /^c?fn=\((\d+)\)(?: (.*))?$/.exec(line);
    if (named) {
      if (named[2] !== undefined) names.set(named[1]!, named[2]);
      if (line.startsWith('fn=')) fn = names.get(named[1]!) ?? '?';
      continue;
    }
    if (line.startsWith('calls=')) {
      skipCost = true; // the next cost line is the call's inclusive cost
      continue;
    }
    if (!/^[0-9+*-]/.test(line)) continue;
    if (skipCost) {
      skipCost = false;
      continue;
    }
    const cost = Number(line.slice(line.lastIndexOf(' ') + 1));
    const name = /^0x[0-9a-f]+$/.test(fn) ? jsName(parseInt(fn, 16)) : fn;
    self.set(name, (self.get(name) ?? 0) + cost);
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, PROFILE_TOP)
    .map(([name, cost]) => [name, cost / count]);
}

/** `LazyCompile:*respond /…/node_modules/koa/lib/application.js:288:10` → `*respond koa/lib/application.js:288`. */
function shorten(name: string): string {
  return name
    .replace(/^(JS|LazyCompile|Function|Builtin|Stub|BytecodeHandler|RegExp):/, '$1:')
    .replace(/file:\/\//, '')
    .replace(/\S*node_modules\//g, '')
    .replace(process.cwd() + '/', '')
    .replace(/(:\d+):\d+$/, '$1');
}

async function w1(data: BenchData, cookieName: string, outDir: string): Promise<Measurement[]> {
  step('starting the floor and the app at warn and at info under callgrind (a few minutes)');
  const appEnv = (level: string) => ({ APP_DATABASE_URL: data.url, APP_LOG_LEVEL: level });
  const specs: Array<[string, string, Record<string, string>]> = [
    ['floor', 'test/bench/baseline-server.ts', { BENCH_DATABASE_URL: data.url }],
    ['app, warn', APP_ENTRY, appEnv('warn')],
    ['app, info', APP_ENTRY, appEnv('info')],
  ];
  const servers = await Promise.all(specs.filter(([label]) => ONLY.has(label)).map(([label, entry, env]) => startCounted(label, entry, env, outDir)));
  const results: Measurement[] = [];
  for (const server of servers) {
    const cookies = data.tokens.map((token) => `${cookieName}=${token}`);
    const get = (i: number) => ({ method: 'GET', path: '/projects', headers: { cookie: cookies[i % cookies.length]! } });
    step(`${server.label}: ${WARMUP} warm-up requests`);
    await drive(server.child.url, WARMUP, CONNECTIONS, get);
    results.push(await measure(server, REQUESTS, () => drive(server.child.url, REQUESTS, CONNECTIONS, get)));
    await server.child.stop(30_000);
  }
  return results;
}

async function copilot(outDir: string): Promise<Measurement[]> {
  const db = await createTestDatabase();
  atCleanUp(() => db.drop());
  const appOrganization = await insertOrganization(db.database, 'Copilot instructions');
  await onUnlimitedAiPlan(db.database, appOrganization);
  const floorOrganization = await insertOrganization(db.database, 'Copilot floor instructions');
  const appCallers: Caller[] = [];
  const floorCallers: Caller[] = [];
  for (let i = 0; i < COPILOT_CONNECTIONS; i += 1) {
    appCallers.push(await memberWithNote(db.database, appOrganization));
    floorCallers.push(await memberWithNote(db.database, floorOrganization));
  }
  const [note] = await db.database.select<{ title: string; content: string }>('select title, content from note where id = $1', [appCallers[0]!.noteId]);
  const fake: OpenAiFake = await startOpenAiFake({ defaultScript: { firstByteDelayMs: 50, deltas: 200, deltaDelayMs: 1 } });
  atCleanUp(() => fake.close());
  step('starting the copilot floor and the app under callgrind');
  const specs: Array<[string, () => Promise<Counted>]> = [
    ['floor', () => startCounted('copilot floor', 'test/bench/copilot-floor-server.ts', {
      BENCH_DATABASE_URL: db.url,
      BENCH_OPENAI_URL: fake.url,
      BENCH_OPENAI_KEY: fake.apiKey,
      BENCH_FLOOR_INPUT: `Title: ${note!.title}\n\n${note!.content}`,
    }, outDir)],
    ['app', () => startCounted('copilot app', APP_ENTRY, { APP_DATABASE_URL: db.url, APP_LOG_LEVEL: 'warn', APP_OPENAI_API_KEY: fake.apiKey, APP_OPENAI_BASE_URL: fake.url }, outDir)],
  ];
  const servers = await Promise.all(specs.filter(([which]) => !COPILOT_ONLY || COPILOT_ONLY === which).map(async ([which, start]) => ({ which, server: await start() })));
  const results: Measurement[] = [];
  for (const { which, server } of servers) {
    const callers = which === 'floor' ? floorCallers : appCallers;
    const call = (i: number) => {
      const caller = callers[i % callers.length]!;
      return { method: 'POST', path: `/notes/${caller.noteId}/copilot/improve`, headers: { cookie: caller.cookie, 'content-type': 'application/json' }, body: '{"tone":"neutral"}' };
    };
    fake.setDefaultScript({ firstByteDelayMs: 50, deltas: 200, deltaDelayMs: 1 });
    step(`${server.label}: ${COPILOT_WARMUP} warm-up calls`);
    await drive(server.child.url, COPILOT_WARMUP, COPILOT_CONNECTIONS, call);
    const long = await measure(server, COPILOT_CALLS, () => drive(server.child.url, COPILOT_CALLS, COPILOT_CONNECTIONS, call));
    fake.setDefaultScript({ firstByteDelayMs: 50, deltas: 1, deltaDelayMs: 1 });
    const short = await measure(server, COPILOT_CALLS, () => drive(server.child.url, COPILOT_CALLS, COPILOT_CONNECTIONS, call));
    results.push({ ...long, label: `${server.label}, 200 deltas` }, { ...short, label: `${server.label}, 1 delta` });
    await server.child.stop(30_000);
  }
  return results;
}

function render(w1Results: Measurement[], copilotResults: Measurement[], loads: { start: string; end: string }): string {
  const find = (label: string) => w1Results.find((m) => m.label === label);
  const [floor, warn, info] = [find('floor'), find('app, warn'), find('app, info')];
  const row = (m: Measurement, against?: Measurement) => [
    m.label,
    num(m.net),
    against ? ratio(m.net / against.net) : '',
    num(m.net - m.gc),
    num(m.gc),
    num(m.raw),
    num(m.idlePerSecond),
    m.queriesPerRequest.toFixed(2),
    m.statuses,
  ];
  const header = ['server', 'instructions per request', 'vs floor', 'outside GC', 'GC', 'before the idle rate', 'idle, per s', 'statements per request', 'answers'];
  const lines = [
    `Run ${new Date().toISOString()}, Node ${process.version}, valgrind callgrind; load average ${loads.start} at the start, ${loads.end} at the end (counts do not depend on it).`,
    `${num(WARMUP)} warm-up requests per server, then ${num(REQUESTS)} counted, ${CONNECTIONS} connections; copilot: ${COPILOT_WARMUP} warm-up calls, then ${COPILOT_CALLS} counted per answer length, ${COPILOT_CONNECTIONS} connections, against the OpenAI fake (50 ms to first byte, deltas 1 ms apart).`,
    '',
    '### W1: authenticated `GET /projects`, 20 rows',
    '',
    table(header, w1Results.map((m) => row(m, m === floor ? undefined : floor))),
  ];
  if (warn && info) {
    lines.push('', [
      `The access log at \`info\`: ${num(info.net - warn.net - (info.gc - warn.gc))} instructions per request outside garbage collection (info − warn),`,
      `${num(info.net - warn.net)} with it: whether a major collection falls in a window moves the GC part by more than the line costs.`,
    ].join(' '));
  }
  if (copilotResults.length > 0) {
    const floorOf = (m: Measurement) => (m.label.startsWith('copilot app') ? copilotResults.find((f) => f.label === m.label.replace('copilot app', 'copilot floor')) : undefined);
    lines.push('', '### Copilot: `POST /notes/{id}/copilot/improve`', '', table(header.map((h) => h.replace('request', 'call')), copilotResults.map((m) => row(m, floorOf(m)))));
  }
  for (const m of [...w1Results, ...copilotResults]) {
    if (!m.profile) continue;
    lines.push('', `#### Top functions, ${m.label} (self instructions per request)`, '', table(['function', 'instructions'], m.profile.map(([name, cost]) => [`\`${name.replaceAll('|', '\\|')}\``, num(cost)])));
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const loadStart = loadavg()[0]!.toFixed(1);
  const { config } = loadConfig(process.env);
  const outDir = await mkdtemp(join(tmpdir(), 'tk-instructions-'));
  if (process.env.BENCH_KEEP_LOGS) step(`callgrind files and logs kept in ${outDir}`);
  else atCleanUp(() => rm(outDir, { recursive: true, force: true }));
  if (APP_ENTRY === BUILT_ENTRY) {
    step('building dist/server');
    await exec(process.execPath, ['app/build-server.mjs']);
  }
  let w1Results: Measurement[] = [];
  if (W1) {
    step('seeding');
    const data = await seedBenchDatabase(config.passwordHashCost, []);
    atCleanUp(() => data.drop());
    w1Results = await w1(data, config.sessionCookieName, outDir);
  }
  const copilotResults = process.env.BENCH_INSTR_COPILOT === '0' ? [] : await copilot(outDir);
  const body = render(w1Results, copilotResults, { start: loadStart, end: loadavg()[0]!.toFixed(1) });
  process.stdout.write(`\n${body}\n\n`);
  // A partial run (W1 or one copilot server left out) is printed, never written over the full one.
  if (process.env.BENCH_INSTR_WRITE !== '0' && W1 && !COPILOT_ONLY) {
    await writeSection(SECTION, body);
    step(`${relative(process.cwd(), 'docs/benchmarks.md')} updated`);
  }
}

runBench('instructions', main, 60 * 60_000);
