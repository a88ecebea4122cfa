import { Queue, type ConnectionOptions, type JobSchedulerTemplateOptions } from 'bullmq';
import type { RecurringJob, Scheduler } from '../../core/jobs/job';

export const DEFAULT_PREFIX = 'tenantkit';

/** Every run of a recurring job: retried with backoff, and only the recent history kept. */
export const RECURRING_JOB_OPTIONS: JobSchedulerTemplateOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: 100,
  removeOnFail: 500,
};

export interface BullmqSchedulerOptions {
  /** An ioredis client (RESP2, `maxRetriesPerRequest: null`); it stays open after stop(). */
  connection: ConnectionOptions;
  /** Redis key prefix; tests use their own so they never touch the app's keys. */
  prefix?: string;
}

/**
 * Registers one BullMQ job scheduler per job, on a queue named after the job. BullMQ keeps the
 * schedule in Redis and creates exactly one job per period, which exactly one worker takes, so
 * any number of API instances and workers can register the same jobs: upserting by the job's
 * name is idempotent, and restarts never duplicate a schedule. Runs happen in the worker host
 * (bullmq-worker.ts), not here; stop() only closes the queues.
 */
export class BullmqScheduler implements Scheduler {
  private readonly queues = new Map<string, Queue>();

  constructor(private readonly options: BullmqSchedulerOptions) {}

  async start(jobs: RecurringJob[]): Promise<void> {
    for (const job of jobs) {
      const queue = this.queue(job.name);
      await queue.upsertJobScheduler(job.name, { every: job.everyMs }, { name: job.name, opts: RECURRING_JOB_OPTIONS });
    }
  }

  async stop(): Promise<void> {
    const queues = [...this.queues.values()];
    this.queues.clear();
    await Promise.all(queues.map((queue) => queue.close()));
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.options.connection, prefix: this.options.prefix ?? DEFAULT_PREFIX });
      this.queues.set(name, queue);
    }
    return queue;
  }
}
