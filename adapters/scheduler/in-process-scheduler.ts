import type { JobRunLedger } from '../../core/jobs/job-run-ledger.port';
import type { RecurringJob, Scheduler } from '../../core/jobs/job';
import type { Clock } from '../../core/shared/clock.port';
import type { Logger } from '../../core/shared/logger.port';

export interface InProcessSchedulerDeps {
  /** Shared by every instance (PostgreSQL in production): decides who runs each period. */
  ledger: JobRunLedger;
  clock: Clock;
  logger: Logger;
  /**
   * Whether a failure means a dependency is down (the database unreachable) rather than a bug.
   * Such failures are logged once when the outage begins and once when it ends, not once per
   * job per period with a stack.
   */
  isOutage?(error: unknown): boolean;
}

/**
 * The default driver, used when there is no Redis: timers inside `npm start`.
 *
 * Time is cut into periods `[k·everyMs, (k+1)·everyMs)`. Each instance wakes once per period, at
 * its middle, and runs the job only if it wins the period in the shared ledger; so with any
 * number of instances on one database a job runs at most once per period, and once per period as
 * long as one instance is up. Waking at the middle tolerates clock skew between instances of up
 * to half a period. The next wake-up is planned only after a run ends, so runs of one job never
 * overlap within an instance, and an overlong run skips periods instead of piling up.
 */
export class InProcessScheduler implements Scheduler {
  /** The current definition of each registered job, by name. */
  private readonly jobs = new Map<string, RecurringJob>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly running = new Set<string>();
  private readonly active = new Set<Promise<void>>();
  private stopped = false;
  private inOutage = false;

  constructor(private readonly deps: InProcessSchedulerDeps) {}

  /**
   * Registering a job whose name is already registered replaces its definition and keeps one
   * schedule, as BullMQ's upsert does: a restart or a second start never doubles the runs.
   */
  async start(jobs: RecurringJob[]): Promise<void> {
    for (const job of jobs) {
      if (!Number.isInteger(job.everyMs) || job.everyMs < 1) throw new Error(`Job ${job.name}: everyMs must be a positive integer`);
    }
    this.stopped = false;
    for (const job of jobs) {
      this.jobs.set(job.name, job);
      clearTimeout(this.timers.get(job.name));
      this.timers.delete(job.name);
      // A job that is running now is planned again, on its new definition, when the run ends.
      if (!this.running.has(job.name)) this.plan(job.name);
    }
  }

  /** Clears every timer and waits for the runs in progress to end. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.jobs.clear();
    await Promise.allSettled([...this.active]);
  }

  private plan(name: string): void {
    const job = this.jobs.get(name);
    if (this.stopped || !job) return;
    const now = this.deps.clock.now().getTime();
    const middle = Math.floor(now / job.everyMs) * job.everyMs + Math.floor(job.everyMs / 2);
    const wakeAt = middle > now ? middle : middle + job.everyMs;
    const timer = setTimeout(() => this.tick(job), wakeAt - now);
    // A pending tick must never keep the process alive on its own.
    timer.unref();
    this.timers.set(name, timer);
  }

  private tick(job: RecurringJob): void {
    this.timers.delete(job.name);
    this.running.add(job.name);
    const run = this.runIfClaimed(job).finally(() => {
      this.active.delete(run);
      this.running.delete(job.name);
      this.plan(job.name);
    });
    this.active.add(run);
  }

  private async runIfClaimed(job: RecurringJob): Promise<void> {
    const { ledger, clock, logger } = this.deps;
    const startedAt = clock.now().getTime();
    const periodStart = new Date(Math.floor(startedAt / job.everyMs) * job.everyMs);
    try {
      const claimed = await ledger.claimPeriod(job.name, periodStart);
      this.outageEnded();
      if (!claimed) return;
    } catch (error) {
      if (this.outageBegan(error)) return;
      logger.warn({ job: job.name, err: error }, 'job skipped: could not claim the period');
      return;
    }
    try {
      const result = await job.run();
      const fields = { job: job.name, period_start: periodStart.toISOString(), duration_ms: clock.now().getTime() - startedAt };
      // Jobs return fields only when they did something, so an idle poll stays out of the info log.
      if (result) logger.info({ ...fields, ...result }, 'job ran');
      else logger.debug(fields, 'job ran');
    } catch (error) {
      if (this.outageBegan(error)) return;
      logger.error({ job: job.name, period_start: periodStart.toISOString(), err: error }, 'job failed; it runs again next period');
    }
  }

  /** True when `error` is an outage: the first one logs one line, the rest of the outage stays quiet. */
  private outageBegan(error: unknown): boolean {
    if (!this.deps.isOutage?.(error)) return false;
    if (!this.inOutage) {
      this.inOutage = true;
      const cause = error instanceof Error ? error.message : String(error);
      this.deps.logger.warn({ cause }, 'jobs paused: a required service is unreachable; each job retries every period');
    }
    return true;
  }

  private outageEnded(): void {
    if (!this.inOutage) return;
    this.inOutage = false;
    this.deps.logger.info({}, 'jobs resumed: the service answers again');
  }
}
