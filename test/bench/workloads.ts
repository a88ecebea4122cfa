import type { RawResult } from 'autocannon';
import { cannon, cookieCycle, loginCycle, settle, summarize, type Measured } from './load';
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
export const WARMUP_SECONDS = 3;
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

/** One W1 window on `target` (W1's connections unless told): autocannon's result and the server's CPU (µs) over it. */
async function w1Window(target: Target, data: BenchData, settings: Settings, seconds: number, connections = W1_CONNECTIONS): Promise<{ result: RawResult; cpu: number }> {
  const before = await target.cpuUsage?.();
  const result = await cannon({ label: target.label, url: target.url, connections, seconds, requests: w1Requests(data, settings) });
  const after = await target.cpuUsage?.();
  return { result, cpu: before && after ? cpuMicros(after) - cpuMicros(before) : NaN };
}

/** A target's windows merged, with its CPU per request when it reports CPU. */
function merged(target: Target, windows: Array<{ result: RawResult; cpu: number }>, connections = W1_CONNECTIONS): Measured {
  const measured = summarize(target.label, target.url, connections, windows.map((w) => w.result));
  const responses = measured.ok + measured.non2xx;
  const cpu = windows.reduce((total, w) => total + w.cpu, 0);
  return target.cpuUsage && responses > 0 ? { ...measured, cpuPerRequestMs: cpu / 1000 / responses } : measured;
}

const responsesOf = (result: RawResult) => result['2xx'] + result.non2xx;

/**
 * W1: authenticated GET /projects, cookies cycled over all 200 sessions, on every target. After a
 * discarded warm-up of each, the targets take turns in two halves, the second in reverse order
 * (e.g. app, baseline, baseline, app), so drift in the machine's background load hits all alike;
 * each target's halves are merged.
 */
export async function w1(targets: Target[], data: BenchData, settings: Settings): Promise<Measured[]> {
  for (const target of targets) await w1Window(target, data, settings, secs(settings, WARMUP_SECONDS));
  const half = secs(settings, W1_SECONDS / 2);
  const windows = new Map<Target, Array<{ result: RawResult; cpu: number }>>(targets.map((t) => [t, []]));
  for (const target of [...targets, ...[...targets].reverse()]) {
    progress(`W1 ${target.label} ${half} s`);
    windows.get(target)!.push(await w1Window(target, data, settings, half));
  }
  return targets.map((target) => merged(target, windows.get(target)!));
}

/** Windows of the access-log measurement, and their length before BENCH_SCALE. */
export const ACCESS_LOG_WINDOWS = 20;
export const ACCESS_LOG_WINDOW_SECONDS = 2.5;
/** The side-by-side warm-up before them, discarded. */
export const ACCESS_LOG_WARMUP_SECONDS = 12;

export interface AccessLogCost {
  /** Each app's windows merged. */
  warn: Measured;
  info: Measured;
  /** Per window, in the order run: the info-level app's CPU per request minus the warn-level app's, in µs. */
  differencesUs: number[];
}

/**
 * What the access log costs a W1 request: two copies of the app, one at `warn` (no access line)
 * and one at `info`, under W1 at the same time, half of W1's connections each, in
 * ACCESS_LOG_WINDOWS short windows. Each window gives one difference of CPU per request; their
 * median is the figure (test/bench/paired.ts). Side by side, whatever else the machine does in a
 * window (another process, the database's own work) weighs on both apps alike; taking turns, as
 * this did before, it weighed on one turn and not the other, and a shared machine moves each
 * app's CPU per request by ±10 % from one turn to the next, more than the line costs. A major GC
 * falls in one app's window and not the other's: it moves a few windows, and the median little.
 *
 * Both apps must be equally warm: a process that has served a few thousand requests still runs
 * part of the path unoptimized and still sizes its heap, and an info-level app fresh from W1's
 * 3 s warm-up measured hundreds of µs a request above a warn-level app that had run W1, falling
 * over its first ten seconds of load (docs/benchmarks.md). So the apps in `cold` (both unless
 * told) first run W1 alone for `warmUpSeconds` (W1's warm-up unless told: `npm run bench` gives
 * the info-level app as long as the warn-level one has just run in W1), then both run side by
 * side for ACCESS_LOG_WARMUP_SECONDS, discarded.
 */
export async function accessLogCost(
  warn: Target,
  info: Target,
  data: BenchData,
  settings: Settings,
  { cold = [warn, info], warmUpSeconds = WARMUP_SECONDS }: { cold?: readonly Target[]; warmUpSeconds?: number } = {},
): Promise<AccessLogCost> {
  for (const target of cold) await w1Window(target, data, settings, secs(settings, warmUpSeconds));
  const seconds = secs(settings, ACCESS_LOG_WINDOW_SECONDS);
  const connections = W1_CONNECTIONS / 2;
  await Promise.all([warn, info].map((target) => w1Window(target, data, settings, secs(settings, ACCESS_LOG_WARMUP_SECONDS), connections)));
  progress(`access log: ${ACCESS_LOG_WINDOWS} windows of ${seconds} s, ${warn.label} and ${info.label} side by side, ${connections} connections each`);
  const warnWindows: Array<{ result: RawResult; cpu: number }> = [];
  const infoWindows: Array<{ result: RawResult; cpu: number }> = [];
  const differencesUs: number[] = [];
  for (let window = 0; window < ACCESS_LOG_WINDOWS; window++) {
    // Whichever load starts first has a head start of a few connections: each goes first in turn.
    const order = window % 2 === 0 ? [warn, info] : [info, warn];
    const [a, b] = await Promise.all(order.map((target) => w1Window(target, data, settings, seconds, connections)));
    const [w, i] = order[0] === warn ? [a!, b!] : [b!, a!];
    warnWindows.push(w);
    infoWindows.push(i);
    differencesUs.push(i.cpu / responsesOf(i.result) - w.cpu / responsesOf(w.result));
  }
  progress(`access log: info − warn per window ${differencesUs.map((d) => d.toFixed(0)).join(', ')} µs`);
  return { warn: merged(warn, warnWindows, connections), info: merged(info, infoWindows, connections), differencesUs };
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
