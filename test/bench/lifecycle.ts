/**
 * Clean-up for the bench scripts: whatever they started (children, the database, temp dirs) is
 * undone, in reverse order, on success, on error, on SIGINT/SIGTERM and past a hard deadline.
 */
const cleanups: Array<() => Promise<unknown>> = [];

export function atCleanUp(work: () => Promise<unknown>): void {
  cleanups.push(work);
}

export async function cleanUp(): Promise<void> {
  while (cleanups.length > 0) {
    await cleanups.pop()!().catch((error: unknown) => process.stderr.write(`clean-up: ${String(error)}\n`));
  }
}

/** Runs `main`, cleaning up afterwards whatever happens; exits non-zero on failure. */
export function runBench(name: string, main: () => Promise<void>, deadlineMs: number): void {
  const deadline = setTimeout(() => {
    process.stderr.write(`[${name}] still running after ${Math.round(deadlineMs / 1000)} s: giving up\n`);
    void cleanUp().finally(() => process.exit(1));
  }, deadlineMs);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`[${name}] ${signal}: cleaning up\n`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  main()
    .then(cleanUp)
    .then(() => clearTimeout(deadline))
    .catch(async (error: unknown) => {
      process.stderr.write(`[${name}] failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      await cleanUp();
      process.exit(1);
    });
}

/** BENCH_SCALE (default 1): every duration of a bench script is multiplied by it, for a quick smoke run. */
export const BENCH_SCALE = Number(process.env.BENCH_SCALE ?? 1);

/** `seconds` scaled by BENCH_SCALE, to a tenth, never below 1 s. */
export const scaledSeconds = (seconds: number): number => Math.max(1, Math.round(seconds * BENCH_SCALE * 10) / 10);
