import autocannon, { type RawResult } from 'autocannon';
import { cannon, cookieCycle, loginCycle, settle, summarize, type Measured } from './load';
import { pairedBy } from './paired';
import { processTicks, TICK_MICROS } from './quiet-machine';
import { emptySamples, fromSamples, listOf, sequentialClient, type Samples } from './sequential';
import { LOGIN_PASSWORD, type BenchData } from './seed';

export interface Target {
  label: string;
  url: string;
  /** The server process's `process.cpuUsage()`, to charge it the CPU of each measured window. */
  cpuUsage?: () => Promise<NodeJS.CpuUsage>;
}

const cpuMicros = (usage: NodeJS.CpuUsage) => usage.user + usage.system;

export interface Settings {
  cookieName: string;
  /** Multiplies every duration (BENCH_SCALE), for a quick smoke run. */
  scale: number;
}

const secs = (settings: Settings, seconds: number) => Math.max(1, Math.round(seconds * settings.scale * 10) / 10);
const progress = (line: string) => process.stderr.write(`  ${line}\n`);
const sleep = (seconds: number) => new Promise((resolve) => setTimeout(resolve, seconds * 1000));

export const W1_CONNECTIONS = 50;
export const W1_SECONDS = 15;
/** W1's measured seconds per server come in this many turns, the servers taking turns. */
export const W1_TURNS = 6;
/**
 * W1's discarded warm-up per server. A server just started runs part of its path unoptimized
 * and is still sizing its heap for a while: after 3 s, the app's and the floor's CPU per
 * request were still falling over the next 30 s of load (by a third for the app, a quarter for
 * the floor, test/bench/w1-split.ts), so the first turns measured the start-up and, most of
 * all, the app's.
 */
export const W1_WARMUP_SECONDS = 12;
export const LOGIN_CONNECTIONS = 20;
export const LOGIN_SECONDS = 10;
/** Logins run this long before anything is measured: until the first ones complete, none do. */
export const LOGIN_RAMP_SECONDS = 5;
export const MIXED_W1_CONNECTIONS = 30;
export const MIXED_SECONDS = 15;
export const REFERENCE_SECONDS = 8;
/** bcrypt with 20 logins in flight takes seconds per request: don't count those as time-outs. */
const SLOW_TIMEOUT_S = 60;

const w1Requests = (data: BenchData, settings: Settings) => cookieCycle('/projects', settings.cookieName, data.tokens);

/**
 * The CPU of the database's backends over a window: those alive at both ends, and those born in
 * it (all their CPU is the window's). A backend gone by the end is left out: its CPU in the
 * window is unknown, and a pool closes only connections that sat idle.
 */
export async function databaseWindow(backendPids: (() => Promise<number[]>) | undefined): Promise<() => Promise<number>> {
  if (!backendPids) return async () => NaN;
  const before = new Map((await backendPids()).map((pid) => [pid, processTicks(pid)?.selfTicks]));
  return async () => {
    let ticks = 0;
    for (const pid of new Set([...before.keys(), ...(await backendPids())])) {
      const now = processTicks(pid)?.selfTicks;
      if (now === undefined) continue;
      const then = before.has(pid) ? before.get(pid) : 0;
      if (then !== undefined) ticks += now - then;
    }
    return ticks * TICK_MICROS;
  };
}

interface W1Window {
  result: RawResult;
  /** The server's CPU over the window, µs. */
  cpu: number;
  /** The CPU of the database's backends over the window, µs (NaN when not watched). */
  databaseCpu: number;
}

/** One W1 window on `target` (W1's connections unless told): autocannon's result, the server's CPU and its database's (µs) over it. */
async function w1Window(
  target: Target,
  data: BenchData,
  settings: Settings,
  seconds: number,
  connections = W1_CONNECTIONS,
  backendPids?: () => Promise<number[]>,
): Promise<W1Window> {
  const database = await databaseWindow(backendPids);
  const before = await target.cpuUsage?.();
  const result = await cannon({ label: target.label, url: target.url, connections, seconds, requests: w1Requests(data, settings) });
  const after = await target.cpuUsage?.();
  return { result, cpu: before && after ? cpuMicros(after) - cpuMicros(before) : NaN, databaseCpu: await database() };
}

/** A target's windows merged, with its CPU per request when it reports CPU, and its database's when watched. */
function merged(target: Target, windows: W1Window[], connections = W1_CONNECTIONS): Measured {
  const measured = summarize(target.label, target.url, connections, windows.map((w) => w.result));
  const responses = measured.ok + measured.non2xx;
  const cpu = windows.reduce((total, w) => total + w.cpu, 0);
  const databaseCpu = windows.reduce((total, w) => total + w.databaseCpu, 0);
  const withCpu = target.cpuUsage && responses > 0 ? { ...measured, cpuPerRequestMs: cpu / 1000 / responses } : measured;
  return Number.isFinite(databaseCpu) && responses > 0 ? { ...withCpu, databaseCpuPerRequestMs: databaseCpu / 1000 / responses } : withCpu;
}

const responsesOf = (result: RawResult) => result['2xx'] + result.non2xx;

/** One turn of W1 on one server, as the ratios per pair of turns need it. */
export interface W1Turn {
  label: string;
  rps: number;
  /** Server CPU per request, µs. */
  cpuUs: number;
  p99: number;
}

export interface W1Results {
  /** Each target's turns merged, in the order given. */
  merged: Measured[];
  /** Every measured turn, in the order run: consecutive pairs hold one turn of each of two targets. */
  turns: W1Turn[];
}

/**
 * W1: authenticated GET /projects, cookies cycled over all 200 sessions, on every target. After a
 * discarded warm-up of each (W1_WARMUP_SECONDS), the targets take `turns` turns each (W1_TURNS, over
 * `seconds`, W1_SECONDS, unless told), every
 * other round in reverse order (app, floor, floor, app, app, floor, …), so that a drift in the
 * machine's background load hits all alike; each target's turns are merged, and each turn is
 * kept for the paired ratios. `backendPids` lists the database's backends, whose CPU per request
 * is reported beside the server's: on two cores PostgreSQL's work competes with the server's, so
 * req/s follows both.
 */
export async function w1(
  targets: Target[],
  data: BenchData,
  settings: Settings,
  { backendPids, turns: count = W1_TURNS, seconds = W1_SECONDS }: { backendPids?: () => Promise<number[]>; turns?: number; seconds?: number } = {},
): Promise<W1Results> {
  for (const target of targets) await w1Window(target, data, settings, secs(settings, W1_WARMUP_SECONDS));
  const turn = secs(settings, seconds / count);
  const windows = new Map<Target, W1Window[]>(targets.map((t) => [t, []]));
  const turns: W1Turn[] = [];
  progress(`W1: ${count} turns of ${turn} s on each of ${targets.map((t) => t.label).join(', ')}`);
  for (let round = 0; round < count; round++) {
    for (const target of round % 2 === 0 ? targets : [...targets].reverse()) {
      const window = await w1Window(target, data, settings, turn, W1_CONNECTIONS, backendPids);
      windows.get(target)!.push(window);
      const responses = responsesOf(window.result);
      turns.push({ label: target.label, rps: window.result['2xx'] / window.result.duration, cpuUs: window.cpu / responses, p99: autocannon.aggregateResult([window.result], { url: target.url, connections: W1_CONNECTIONS }).latency.p99 });
    }
  }
  progress(`W1 per turn: ${turns.map((t) => `${t.label} ${t.rps.toFixed(0)}/s ${t.cpuUs.toFixed(0)} µs`).join(', ')}`);
  return { merged: targets.map((target) => merged(target, windows.get(target)!)), turns };
}

/** The access-log measurement's slices, warm-up and control, before BENCH_SCALE. */
export const ACCESS_LOG_SLICE_SECONDS = 0.5;
export const ACCESS_LOG_SECONDS = 60;
export const ACCESS_LOG_CONTROL_SECONDS = 30;
export const ACCESS_LOG_WARMUP_SECONDS = 10;

/** An app whose log level the runner can switch between windows (`ServerChild.setLogLevel`). */
export interface LevelSwitchable extends Target {
  /** Sets the level; resolves to the server's `process.cpuUsage()` right after. */
  setLogLevel(level: string): Promise<NodeJS.CpuUsage>;
}

/** One level's slices of the access-log measurement, summed. */
export interface LevelTotals {
  level: string;
  slices: number;
  responses: number;
  rps: number;
  /** Server CPU per request over its slices, µs. */
  cpuUs: number;
}

export interface AccessLogCost {
  warn: LevelTotals;
  info: LevelTotals;
  /** Per pair of consecutive slices, in the order run: CPU per request at `info` minus at `warn`, µs. */
  differencesUs: number[];
  /** The same protocol with `warn` in both arms: per pair, arm b's CPU per request minus arm a's (what the method reads when nothing changes). */
  controlUs: number[];
}

/** One slice of `slicedByLevel`: its arm (a or b, in the order a, b, b, a, …) and the arm's level. */
export interface LevelSlice {
  label: 'a' | 'b';
  level: string;
  responses: number;
  cpuUs: number;
  seconds: number;
}

/**
 * W1 on one app for `seconds`, its log level switched every ACCESS_LOG_SLICE_SECONDS between two
 * arms, in the order a, b, b, a, a, b, … (arm a at `levels[0]`, b at `levels[1]`), as one continuous load: at each switch the app reports its CPU,
 * and the runner counts the responses it has received. Each slice is the CPU and the responses
 * between two switches. The first second (connections opening) is not sliced.
 */
const ARMS = ['a', 'b', 'b', 'a'] as const;

async function slicedByLevel(target: LevelSwitchable, data: BenchData, settings: Settings, levels: readonly [string, string], seconds: number): Promise<LevelSlice[]> {
  const count = Math.max(2, Math.round(seconds / ACCESS_LOG_SLICE_SECONDS / 2) * 2);
  let responses = 0;
  let done = false;
  const instance = autocannon({
    url: target.url,
    connections: W1_CONNECTIONS,
    duration: seconds + 30, // stopped once the slices are taken
    requests: w1Requests(data, settings),
    skipAggregateResult: true,
  });
  instance.on('response', () => {
    responses += 1;
  });
  const finished = Promise.resolve(instance).then(() => {
    done = true;
  });
  const slices: LevelSlice[] = [];
  try {
    await sleep(1);
    const armOf = (i: number) => ARMS[i % 4]!;
    const levelOf = (i: number) => levels[armOf(i) === 'a' ? 0 : 1];
    let before = { cpu: cpuMicros(await target.setLogLevel(levelOf(0))), responses, at: performance.now() };
    for (let i = 0; i < count && !done; i++) {
      await sleep(ACCESS_LOG_SLICE_SECONDS);
      const cpu = cpuMicros(await target.setLogLevel(i + 1 < count ? levelOf(i + 1) : levels[0]));
      const after = { cpu, responses, at: performance.now() };
      slices.push({ label: armOf(i), level: levelOf(i), responses: after.responses - before.responses, cpuUs: after.cpu - before.cpu, seconds: (after.at - before.at) / 1000 });
      before = after;
    }
  } finally {
    instance.stop();
    await finished;
  }
  if (slices.length < count) throw new Error(`W1 on ${target.label} ended after ${slices.length} of ${count} slices`);
  return slices;
}

/**
 * Arm b's CPU per request minus arm a's in each pair of consecutive slices (`pairedBy`): b second
 * in half the pairs and first in the other half, so an effect of a slice's place in its pair
 * cancels out of the median, for the measurement and for the control alike.
 */
export function armDifferences(slices: readonly LevelSlice[]): number[] {
  return pairedBy(slices, 'b', (b, a) => b.cpuUs / b.responses - a.cpuUs / a.responses);
}

function totals(slices: readonly LevelSlice[], level: string): LevelTotals {
  const mine = slices.filter((slice) => slice.level === level);
  const responses = mine.reduce((sum, slice) => sum + slice.responses, 0);
  const seconds = mine.reduce((sum, slice) => sum + slice.seconds, 0);
  const cpu = mine.reduce((sum, slice) => sum + slice.cpuUs, 0);
  return { level, slices: mine.length, responses, rps: responses / seconds, cpuUs: cpu / responses };
}

/**
 * What the access log costs a W1 request: one app process under W1, its log level switched
 * between `warn` (no access line) and `info` every half second (`slicedByLevel`), for
 * ACCESS_LOG_SECONDS; each pair of consecutive slices gives one difference of CPU per request,
 * their median is the figure (test/bench/paired.ts). Then the control: the same for
 * ACCESS_LOG_CONTROL_SECONDS with `warn` in both arms, which shows how far the method reads
 * from zero when nothing changes. A discarded warm-up of ACCESS_LOG_WARMUP_SECONDS, switching as
 * measured, comes first: the app has run W1 at `warn` only, so its access-line code is not yet
 * compiled, and the first level switches deoptimize what had taken the logger's methods for
 * constants. The app is left at `warn`.
 *
 * One process, not two: two copies of the same app, taking turns under W1 at one level each,
 * differed by their own offsets (two warn-level copies read 286 and 322 µs a request, medians of
 * eight turns each; JIT decisions and heap layout differ from one process to the next), which
 * the 15 µs target cannot be told from. Half-second slices in one continuous load, in
 * a-b-b-a order, also leave a drift of the machine's load no time to act between the two
 * halves of a pair.
 */
export async function accessLogCost(app: LevelSwitchable, data: BenchData, settings: Settings): Promise<AccessLogCost> {
  const levels = ['warn', 'info'] as const;
  try {
    await slicedByLevel(app, data, settings, levels, secs(settings, ACCESS_LOG_WARMUP_SECONDS));
    const slices = await slicedByLevel(app, data, settings, levels, secs(settings, ACCESS_LOG_SECONDS));
    const control = await slicedByLevel(app, data, settings, ['warn', 'warn'], secs(settings, ACCESS_LOG_CONTROL_SECONDS));
    const differencesUs = armDifferences(slices);
    const controlUs = armDifferences(control);
    progress(`access log: info − warn per pair of slices ${differencesUs.map((d) => d.toFixed(0)).join(', ')} µs; control ${controlUs.map((d) => d.toFixed(0)).join(', ')} µs`);
    return { warn: totals(slices, 'warn'), info: totals(slices, 'info'), differencesUs, controlUs };
  } finally {
    await app.setLogLevel('warn');
  }
}

export interface W2Results {
  loginAlone: Measured;
  /** The floor's logins alone, same connections and duration: the yardstick for the app's rate. */
  floorLoginAlone: Measured;
  w1Alone: Measured;
  pingAlone: Measured;
  w1UnderLogin: Measured;
  loginUnderW1: Measured;
  pingUnderLogin: Measured;
}

/** GET /ping back to back on its own connection while `during` runs: how long the event loop stalls. */
async function probe(target: Target, during: Promise<unknown>): Promise<Measured> {
  const client = sequentialClient(target.url, '/ping', {}, (status) => status === 200);
  const samples = emptySamples();
  let done = false;
  const stop = () => (done = true);
  during.then(stop, stop);
  try {
    while (!done) await client.run(0.5, samples);
  } finally {
    client.close();
  }
  return fromSamples('GET /ping (1 connection)', samples);
}

/** Completions per second once `skip` seconds have passed (the ramp excluded). */
const steadyRate = (ticks: number[], skip: number, seconds: number) => ticks.slice(skip, skip + seconds).reduce((a, b) => a + b, 0) / seconds;

const loginRun = (app: Target, data: BenchData, settings: Settings, seconds: number, ticks: number[]) =>
  cannon({
    label: 'login',
    url: app.url,
    connections: LOGIN_CONNECTIONS,
    seconds: secs(settings, LOGIN_RAMP_SECONDS) + seconds,
    requests: loginCycle(data.loginEmails, LOGIN_PASSWORD),
    timeout: SLOW_TIMEOUT_S,
    ticks,
  });

const mixedW1Run = (app: Target, data: BenchData, settings: Settings, seconds: number) =>
  cannon({ label: 'w1', url: app.url, connections: MIXED_W1_CONNECTIONS, seconds, requests: w1Requests(data, settings), timeout: SLOW_TIMEOUT_S });

const drain = async (app: Target) => progress(`logins left in flight drained in ${(await settle(app.url)).toFixed(1)} s`);

/** Logins alone (20 connections), req/s counted after the ramp. */
async function loginAlone(target: Target, data: BenchData, settings: Settings, label: string): Promise<Measured> {
  progress(`login alone (${target.label})`);
  const ramp = secs(settings, LOGIN_RAMP_SECONDS);
  const seconds = secs(settings, LOGIN_SECONDS);
  const ticks: number[] = [];
  const run = await loginRun(target, data, settings, seconds, ticks);
  await drain(target);
  return summarize(label, target.url, LOGIN_CONNECTIONS, [run], { rps: steadyRate(ticks, ramp, seconds) });
}

/** W1 alone at 30 connections with the /ping probe alongside: the reference for the runs with logins. */
export async function w1Reference(app: Target, data: BenchData, settings: Settings): Promise<Pick<W2Results, 'w1Alone' | 'pingAlone'>> {
  progress(`W1 alone, ${MIXED_W1_CONNECTIONS} connections (${app.label})`);
  const reference = mixedW1Run(app, data, settings, secs(settings, REFERENCE_SECONDS));
  const pingAlone = await probe(app, reference);
  return { pingAlone, w1Alone: summarize('GET /projects alone', app.url, MIXED_W1_CONNECTIONS, [await reference]) };
}

/** Logins (20 connections) and, once past their ramp, W1 (30) with the /ping probe alongside. */
export async function w1WithLogins(app: Target, data: BenchData, settings: Settings): Promise<Pick<W2Results, 'w1UnderLogin' | 'loginUnderW1' | 'pingUnderLogin'>> {
  progress(`logins + W1 together (${app.label})`);
  const ramp = secs(settings, LOGIN_RAMP_SECONDS);
  const seconds = secs(settings, MIXED_SECONDS);
  const ticks: number[] = [];
  const logins = loginRun(app, data, settings, seconds + 1, ticks);
  await sleep(ramp);
  const mixed = mixedW1Run(app, data, settings, seconds);
  const pingUnderLogin = await probe(app, mixed);
  const w1UnderLogin = summarize('GET /projects during logins', app.url, MIXED_W1_CONNECTIONS, [await mixed]);
  const loginUnderW1 = summarize('POST /auth/login during GETs', app.url, LOGIN_CONNECTIONS, [await logins], { rps: steadyRate(ticks, ramp, seconds) });
  await drain(app);
  return { w1UnderLogin, loginUnderW1, pingUnderLogin };
}

/**
 * W2: logins alone (20 connections, req/s counted after the ramp) on the app, then on the floor;
 * then, on the app, W1 alone at 30 connections, the reference, and both at once, as two
 * concurrent autocannon instances.
 */
export async function w2(app: Target, floor: Target, data: BenchData, settings: Settings): Promise<W2Results> {
  const appLogins = await loginAlone(app, data, settings, 'POST /auth/login alone');
  const floorLoginAlone = await loginAlone(floor, data, settings, `POST /auth/login alone, ${floor.label}`);
  return { loginAlone: appLogins, floorLoginAlone, ...(await w1Reference(app, data, settings)), ...(await w1WithLogins(app, data, settings)) };
}

export interface ListLatency {
  projects: number;
  results: Measured[];
}

/**
 * GET /projects?limit=50 back to back on one connection, for each organization size, on each
 * server; three rounds over every (size, server) pair, merged, so drift hits every pair alike.
 */
export async function listLatency(targets: Target[], data: BenchData, settings: Settings, secondsPerRound = 1): Promise<ListLatency[]> {
  const cells = data.listTokens.flatMap(({ projects, token }) =>
    targets.map((target) => ({
      projects,
      target,
      samples: emptySamples() as Samples,
      client: sequentialClient(target.url, '/projects?limit=50', { cookie: `${settings.cookieName}=${token}` }, listOf(Math.min(50, projects))),
    })),
  );
  try {
    for (let round = 0; round < 3; round++) {
      progress(`list latency, round ${round + 1} of 3`);
      for (const cell of cells) await cell.client.run(secs(settings, secondsPerRound), cell.samples, round === 0 ? 30 : 0);
    }
  } finally {
    for (const cell of cells) cell.client.close();
  }
  return data.listTokens.map(({ projects }) => ({
    projects,
    results: cells.filter((c) => c.projects === projects).map((c) => fromSamples(c.target.label, c.samples)),
  }));
}
