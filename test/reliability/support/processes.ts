import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { join, resolve } from 'node:path';
import { waitFor } from './ports';

const ROOT = resolve(import.meta.dirname, '../../..');

export type LogLine = Record<string, unknown> & { level: number; msg: string };

/**
 * `npm start` or `npm run worker` as a child process, the way they run in production (their own
 * process, real signals), with their JSON log lines parsed as they arrive.
 */
export interface ServiceProcess {
  child: ChildProcess;
  /** The API's `http://127.0.0.1:<port>`; empty for a worker. */
  url: string;
  logs(): LogLine[];
  /** Everything it wrote that was not a JSON log line (stack traces, crashes). */
  otherOutput(): string;
  /** Sends `signal` and resolves with the exit code, or throws after `timeoutMs`. */
  stop(signal?: NodeJS.Signals, timeoutMs?: number): Promise<number | null>;
  /** Resident set size in MB, from /proc. */
  rssMb(): Promise<number>;
}

/** Every process of a scenario shares these secrets (as a deployment does), so none logs a warning. */
const SERVICE_DEFAULTS = {
  APP_PORT: '0',
  APP_PASSWORD_HASH_COST: '4',
  APP_CRON_SECRET: randomBytes(24).toString('base64url'),
  APP_JWT_SECRET_KEY: randomBytes(24).toString('base64url'),
  // A key of its own, as production has: without it dev warns once that it uses the data-dir key,
  // and the tests treat every warning as a failure.
  APP_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};

const children = new Set<ChildProcess>();
/** Kills every child still running: for afterAll, so a failed test never leaves one behind. */
export async function killAllServices(): Promise<void> {
  await Promise.all(
    [...children].map(async (child) => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, 'exit');
        child.kill('SIGKILL');
        await exited;
      }
      children.delete(child);
    }),
  );
}

/** Resolves once the process logs that it is ready (`waitUntilReady: false`: at once, after the spawn). */
export async function startService(kind: 'api' | 'worker', env: Record<string, string>, timeoutMs = 60_000, waitUntilReady = true): Promise<ServiceProcess> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('APP_')));
  const script = kind === 'api' ? 'app/main.ts' : 'app/worker/main.ts';
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: ROOT,
    env: { ...inherited, PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}`, ...SERVICE_DEFAULTS, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const lines: LogLine[] = [];
  let other = '';
  let pending = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    for (const line of complete) {
      if (!line.trim()) continue;
      try {
        lines.push(JSON.parse(line) as LogLine);
      } catch {
        other += `${line}\n`;
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (other += chunk));
  const exit = once(child, 'exit').then(([code]) => code as number | null);
  const ready = kind === 'api' ? 'tenantkit listening' : 'worker running';
  try {
    if (waitUntilReady) await Promise.race([
      waitFor(`${kind} logs "${ready}"`, () => lines.some((line) => line.msg === ready), timeoutMs),
      exit.then((code) => {
        throw new Error(`${kind} exited with ${code} before it was ready:\n${other}`);
      }),
    ]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  const url = kind === 'api' && waitUntilReady ? String(lines.find((line) => line.msg === ready)!.url) : '';
  return {
    child,
    url,
    logs: () => [...lines],
    otherOutput: () => other,
    async stop(signal = 'SIGTERM', stopTimeoutMs = 30_000) {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${kind} still running ${stopTimeoutMs} ms after ${signal}`)), stopTimeoutMs);
      });
      try {
        return await Promise.race([exit, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async rssMb() {
      const { readFile } = await import('node:fs/promises');
      const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
    },
  };
}
