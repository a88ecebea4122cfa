/**
 * Where a W1 request's CPU goes on the whole machine, not only in the server: W1 against the app
 * (`warn`) and the floor in alternating windows (app, floor, floor, app, …), and for each window
 * the CPU per request of the server, of its PostgreSQL backends, of this process (autocannon), of
 * everything else, and the machine's idle time per request. On two cores every part competes for
 * the same CPU, so the req/s ratio follows the sum, not the server's share alone.
 *
 *   npx tsx test/bench/w1-split.ts   SPLIT_ROUNDS=6, SPLIT_SECONDS=2.5, SPLIT_WARMUP=<SPLIT_SECONDS>, SPLIT_CONNS=50
 *   (defaults); SPLIT_LISTS=0 leaves out the list-latency organizations (100,000 projects among them)
 *
 * Prints only.
 */
import { cpuUsage } from 'node:process';
import { loadConfig } from '../../app/config/config';
import { freePort, startBenchApp, startServerChild, type ServerChild } from './children';
import { cannon, cookieCycle } from './load';
import { atCleanUp, runBench } from './lifecycle';
import { median } from './paired';
import { machineTicks as machine, TICK_MICROS } from './quiet-machine';
import { databaseBackends, seedBenchDatabase, type BenchData } from './seed';
import { databaseWindow } from './workloads';

const ROUNDS = Number(process.env.SPLIT_ROUNDS ?? 6);
const SECONDS = Number(process.env.SPLIT_SECONDS ?? 2.5);
const CONNECTIONS = Number(process.env.SPLIT_CONNS ?? 50);
const WARMUP_SECONDS = Number(process.env.SPLIT_WARMUP ?? SECONDS);

const say = (line: string) => process.stderr.write(`${line}\n`);

interface Split {
  label: string;
  rps: number;
  server: number;
  postgres: number;
  runner: number;
  rest: number;
  idle: number;
}

async function window(label: string, server: ServerChild, data: BenchData, cookieName: string, seconds = SECONDS): Promise<Split> {
  const postgres = await databaseWindow(databaseBackends(data.url));
  const serverBefore = await server.cpuUsage();
  const runnerBefore = cpuUsage();
  const machineBefore = machine();
  const result = await cannon({ label, url: server.url, connections: CONNECTIONS, seconds, requests: cookieCycle('/projects', cookieName, data.tokens) });
  const machineAfter = machine();
  const runnerAfter = cpuUsage(runnerBefore);
  const serverAfter = await server.cpuUsage();
  const postgresUs = await postgres();
  const responses = result['2xx'] + result.non2xx;
  const perRequest = (us: number) => us / responses;
  const serverUs = serverAfter.user + serverAfter.system - serverBefore.user - serverBefore.system;
  const runnerUs = runnerAfter.user + runnerAfter.system;
  const busyUs = (machineAfter.busy - machineBefore.busy) * TICK_MICROS;
  return {
    label,
    rps: result['2xx'] / result.duration,
    server: perRequest(serverUs),
    postgres: perRequest(postgresUs),
    runner: perRequest(runnerUs),
    rest: perRequest(busyUs - serverUs - postgresUs - runnerUs),
    idle: perRequest((machineAfter.idle - machineBefore.idle) * TICK_MICROS),
  };
}

const row = (s: Split) =>
  `${s.label.padEnd(8)} ${s.rps.toFixed(0).padStart(6)} req/s  server ${s.server.toFixed(0).padStart(4)}  postgres ${s.postgres.toFixed(0).padStart(4)}  runner ${s.runner.toFixed(0).padStart(4)}  rest ${s.rest.toFixed(0).padStart(4)}  idle ${s.idle.toFixed(0).padStart(4)} µs/req`;

async function main(): Promise<void> {
  const { config } = loadConfig(process.env);
  const data = await seedBenchDatabase(4, process.env.SPLIT_LISTS === '0' ? [] : undefined);
  atCleanUp(() => data.drop());
  const app = await startBenchApp(data.url);
  const floorPort = await freePort();
  const floor = await startServerChild({
    name: 'floor',
    entry: 'test/bench/baseline-server.ts',
    port: floorPort,
    env: { BENCH_DATABASE_URL: data.url, BENCH_PORT: String(floorPort) },
    logFile: `${app.logFile}.floor`,
    readyPath: '/ping',
  });
  atCleanUp(() => floor.stop());
  const servers: Array<[string, ServerChild]> = [
    ['app', app],
    ['floor', floor],
  ];
  for (const [label, server] of servers) await window(label, server, data, config.sessionCookieName, WARMUP_SECONDS); // warm-up, discarded
  const all: Split[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? servers : [...servers].reverse();
    for (const [label, server] of order) {
      const split = await window(label, server, data, config.sessionCookieName);
      all.push(split);
      say(row(split));
    }
  }
  say('\nmedians:');
  for (const [label] of servers) {
    const mine = all.filter((s) => s.label === label);
    const med = (pick: (s: Split) => number) => median(mine.map(pick).sort((a, b) => a - b));
    say(row({ label, rps: med((s) => s.rps), server: med((s) => s.server), postgres: med((s) => s.postgres), runner: med((s) => s.runner), rest: med((s) => s.rest), idle: med((s) => s.idle) }));
  }
}

runBench('w1-split', main, 10 * 60_000);
