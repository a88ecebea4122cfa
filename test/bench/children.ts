import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, closeSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { atCleanUp } from './lifecycle';

/**
 * The servers under test run as child processes (`node --import tsx <entry>`, what `tsx <entry>`
 * does without the extra launcher process), each with its own port and log file. Every child
 * started here is killed when this process exits, whatever the reason.
 */
export interface ServerChild {
  name: string;
  url: string;
  process: ChildProcess;
  logFile: string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. Idempotent. */
  stop(graceMs?: number): Promise<void>;
  /** The child's own `process.cpuUsage()` (µs of user and system CPU since it started). */
  cpuUsage(): Promise<NodeJS.CpuUsage>;
  /** Statements sent to PostgreSQL since it started (counted only with BENCH_COUNT_QUERIES=1 in its environment). */
  queries(): Promise<number>;
  /**
   * Sets the level of every logger `pino()` made in the child (`cpu-reporter.ts`); resolves to the
   * child's `process.cpuUsage()` read right after, so a window can start or end at the switch.
   */
  setLogLevel(level: string): Promise<NodeJS.CpuUsage>;
  /** Starts V8's sampling heap profiler in the child (`cpu-reporter.ts`), freed objects kept. */
  startAllocationSampling(): Promise<void>;
  /** Stops it; the child writes the profile to `path` (JSON, `HeapProfiler.stopSampling`'s `profile`). */
  stopAllocationSampling(path: string): Promise<void>;
  /** What the child recorded of its copilot calls' stages since the last read (BENCH_STAGES=1 in its environment). */
  stageMarks(): Promise<Array<[stage: string, at: number]>>;
}

const running = new Set<ChildProcess>();
process.on('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  name: string;
  entry: string;
  port: number;
  env: Record<string, string>;
  logFile: string;
  /** Extra node flags, e.g. `--cpu-prof`. */
  nodeFlags?: string[];
  /** A command the server runs under, e.g. `['valgrind', '--tool=callgrind']`: node and its arguments follow it. */
  runUnder?: string[];
  /** A path answering 2xx once the server is ready. */
  readyPath: string;
  readyTimeoutMs?: number;
}

export async function startServerChild(options: StartOptions): Promise<ServerChild> {
  const log = openSync(options.logFile, 'a');
  const reporter = new URL('./cpu-reporter.ts', import.meta.url).href;
  const [command, ...args] = [...(options.runUnder ?? []), process.execPath, ...(options.nodeFlags ?? []), '--import', 'tsx', '--import', reporter, options.entry];
  const child = spawn(command!, args, {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', log, log, 'ipc'],
  });
  closeSync(log);
  running.add(child);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once('exit', () => {
      running.delete(child);
      resolve();
    });
  });
  let stopping: Promise<void> | undefined;
  // Under valgrind a child answers many times slower: it gets a minute.
  const ask = <T>(message: string | object, isAnswer: (reply: unknown) => reply is T, what: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (reply: unknown) => {
        if (!isAnswer(reply)) return;
        clearTimeout(timer);
        child.off('message', onMessage);
        resolve(reply);
      };
      const timer = setTimeout(() => {
        child.off('message', onMessage);
        reject(new Error(`${options.name} did not ${what}`));
      }, options.runUnder ? 60_000 : 5_000);
      child.on('message', onMessage);
      child.send(message);
    });
  const report = () =>
    ask('cpu-usage', (reply): reply is { cpuUsage: NodeJS.CpuUsage; queries: number } => typeof reply === 'object' && reply !== null && 'cpuUsage' in reply, 'report its CPU usage');
  const sampling = (request: string) =>
    ask(
      { allocations: request },
      (reply): reply is { allocations: string; error?: string } => typeof reply === 'object' && reply !== null && (reply as { allocations?: unknown }).allocations === request,
      request === 'start' ? 'start sampling its allocations' : 'write its allocation profile',
    );
  const server: ServerChild = {
    name: options.name,
    url: `http://127.0.0.1:${options.port}`,
    process: child,
    logFile: options.logFile,
    stop(graceMs = 5_000) {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
    cpuUsage: () => report().then((r) => r.cpuUsage),
    queries: () => report().then((r) => r.queries),
    async setLogLevel(level) {
      const { loggers, cpuUsage } = await ask(
        { logLevel: level },
        (reply): reply is { logLevel: string; loggers: number; cpuUsage: NodeJS.CpuUsage } => typeof reply === 'object' && reply !== null && (reply as { logLevel?: unknown }).logLevel === level,
        `set its log level to ${level}`,
      );
      if (loggers === 0) throw new Error(`${options.name} has no logger whose level could be set`);
      return cpuUsage;
    },
    async startAllocationSampling() {
      await sampling('start');
    },
    async stopAllocationSampling(path) {
      const { error } = await sampling(path);
      if (error) throw new Error(`${options.name} could not write its allocation profile: ${error}`);
    },
    async stageMarks() {
      const reply = await ask(
        { stages: 'read' },
        (answer): answer is { stages: Array<[string, number]> } => typeof answer === 'object' && answer !== null && Array.isArray((answer as { stages?: unknown }).stages),
        'report its stage marks',
      );
      return reply.stages;
    },
  };
  try {
    await waitUntilReady(server, options.readyPath, options.readyTimeoutMs ?? 120_000);
  } catch (error) {
    await server.stop(1_000);
    throw error;
  }
  return server;
}

async function waitUntilReady(server: ServerChild, path: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server.process.exitCode !== null) break;
    try {
      const res = await fetch(`${server.url}${path}`, { signal: AbortSignal.timeout(1_000) });
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const tail = readFileSync(server.logFile, 'utf8').split('\n').slice(-20).join('\n');
  throw new Error(`${server.name} did not become ready within ${timeoutMs} ms (exit code ${server.process.exitCode}). Log tail:\n${tail}`);
}

/**
 * The app (`app/main.ts`, `APP_LOG_LEVEL=warn`) on `databaseUrl` and a free port, its log in a
 * temp dir: both stopped and removed at clean-up. `env` adds or overrides settings.
 */
export async function startBenchApp(databaseUrl: string, env: Record<string, string> = {}): Promise<ServerChild> {
  const logDir = await mkdtemp(join(tmpdir(), 'tk-bench-app-'));
  atCleanUp(() => rm(logDir, { recursive: true, force: true }));
  const port = await freePort();
  const app = await startServerChild({
    name: 'app',
    entry: 'app/main.ts',
    port,
    env: { APP_DATABASE_URL: databaseUrl, APP_PORT: String(port), APP_LOG_LEVEL: 'warn', ...env },
    logFile: join(logDir, 'app.log'),
    readyPath: '/ping',
  });
  atCleanUp(() => app.stop());
  return app;
}
