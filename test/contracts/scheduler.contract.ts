import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RecurringJob, Scheduler } from '../../core/jobs/job';

/**
 * A Scheduler as a deployment runs it: what registers the jobs and what runs them. For timers
 * that is one object; for BullMQ it is the scheduler plus the workers of the registered queues,
 * and `stop()` closes both.
 */
export interface SchedulerHarness {
  scheduler: Scheduler;
  teardown(): Promise<void>;
}

export interface SchedulerContractOptions {
  /** The period of the jobs under test: short, so that each test takes a few seconds. */
  periodMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(20);
  }
}

/** A job that records the time of each of its runs; `fail` decides per run whether it throws. */
function recordingJob(name: string, everyMs: number, fail: (run: number) => boolean = () => false) {
  const runs: number[] = [];
  const job: RecurringJob = {
    name,
    everyMs,
    run: async () => {
      runs.push(Date.now());
      if (fail(runs.length)) throw new Error(`run ${runs.length} of ${name} failed`);
    },
  };
  return { job, runs };
}

export function describeSchedulerContract(name: string, options: SchedulerContractOptions, setup: () => Promise<SchedulerHarness>): void {
  const PERIOD = options.periodMs;
  // Long enough for a count per period to mean something, short enough to bound each test.
  const WINDOW = 8 * PERIOD;

  /** Runs the scheduler for WINDOW, then stops it; returns how many whole periods that was. */
  async function runFor(h: SchedulerHarness, register: () => Promise<void>): Promise<number> {
    const startedAt = Date.now();
    await register();
    await sleep(WINDOW);
    await h.scheduler.stop();
    return Math.floor((Date.now() - startedAt) / PERIOD);
  }

  // Once per period, within one period either way: a schedule may start or end mid-period, and
  // a busy machine may push a run across a boundary. Twice per period is never within bounds.
  const expectOncePerPeriod = (runs: number[], periods: number) => {
    expect(runs.length).toBeGreaterThanOrEqual(periods - 2);
    expect(runs.length).toBeLessThanOrEqual(periods + 1);
  };

  describe(`Scheduler contract: ${name}`, () => {
    let h: SchedulerHarness;

    beforeEach(async () => {
      h = await setup();
    });

    afterEach(async () => {
      await h.teardown();
    });

    it('runs each registered job once per period of its own', async () => {
      const fast = recordingJob('contract-fast', PERIOD);
      const slow = recordingJob('contract-slow', 2 * PERIOD);

      const periods = await runFor(h, () => h.scheduler.start([fast.job, slow.job]));

      expectOncePerPeriod(fast.runs, periods);
      expectOncePerPeriod(slow.runs, Math.floor(periods / 2));
    });

    it('registering the same job again, as a restart or a second instance does, never doubles its runs', async () => {
      const runs: number[] = [];
      const job = (): RecurringJob => ({ name: 'contract-again', everyMs: PERIOD, run: async () => void runs.push(Date.now()) });

      const periods = await runFor(h, async () => {
        await h.scheduler.start([job()]);
        await h.scheduler.start([job()]);
        await h.scheduler.start([job()]);
      });

      expectOncePerPeriod(runs, periods);
    });

    it('runs nothing once stopped', async () => {
      const { job, runs } = recordingJob('contract-stop', PERIOD);
      await h.scheduler.start([job]);
      await until(() => runs.length >= 1, 4 * PERIOD + 5_000, 'a first run');

      await h.scheduler.stop();
      const stoppedAt = runs.length;
      await sleep(4 * PERIOD);

      expect(runs.length).toBe(stoppedAt);
    });

    it('keeps the schedule after a failed run', async () => {
      const { job, runs } = recordingJob('contract-failing', PERIOD, (run) => run === 1);
      await h.scheduler.start([job]);

      // BullMQ retries the failed run with a one-second backoff; timers wait for the next period.
      await until(() => runs.length >= 3, 8 * PERIOD + 5_000, 'runs after the failed one');
      await h.scheduler.stop();
    });
  });
}
