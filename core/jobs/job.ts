/**
 * Recurring background work, driven by whichever Scheduler the deployment runs: timers inside
 * `npm start` (no Redis) or BullMQ job schedulers served by `npm run worker` (Redis).
 */
export interface RecurringJob {
  /** Stable kebab-case id: the BullMQ queue name and the key of the once-per-period guard. */
  name: string;
  /** The period, in milliseconds. */
  everyMs: number;
  /**
   * One run. Must be idempotent and safe to cut short: a run that dies half-way is not resumed,
   * the next one (or a retry) starts over. Fields it returns are logged with the run.
   */
  run(): Promise<Record<string, unknown> | void>;
}

/**
 * Runs registered jobs. However many instances (servers or workers) start the same jobs, a job
 * runs at most once per period across all of them. A failed run is logged and left to the next
 * period (or to the driver's retry policy); it never stops the schedule.
 */
export interface Scheduler {
  /**
   * Begins (or registers) the schedule. Starting the same jobs again never duplicates them: a job
   * registered again under its name keeps one schedule, on the latest definition.
   */
  start(jobs: RecurringJob[]): Promise<void>;
  /**
   * Stops starting new runs. A run in progress is either awaited (in-process timers) or handed
   * back to the shared queue, where another worker retries it (BullMQ).
   */
  stop(): Promise<void>;
}
