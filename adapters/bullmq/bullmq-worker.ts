import { Worker, type ConnectionOptions, type Job, type WorkerOptions } from 'bullmq';
import type { Logger } from '../../core/shared/logger.port';
import { DEFAULT_PREFIX } from './bullmq-scheduler';

/** Processes one job of a queue; the fields it returns are logged and kept as the job's result. */
export type JobProcessor = (job: Job) => Promise<Record<string, unknown> | void>;

/** Stalled-job tuning; production keeps BullMQ's defaults, tests shorten them. */
export type StallSettings = Pick<WorkerOptions, 'lockDuration' | 'stalledInterval' | 'maxStalledCount' | 'drainDelay'>;

export interface BullmqWorkerHostOptions {
  /** An ioredis client (RESP2, `maxRetriesPerRequest: null`); each worker duplicates it for blocking reads. */
  connection: ConnectionOptions;
  logger: Logger;
  prefix?: string;
  /** Tells workers apart in BullMQ's job records and in the logs. */
  name?: string;
  stall?: StallSettings;
}

/**
 * Hosts one BullMQ worker per registered queue, each with concurrency 1. Queues and their
 * processors are registered, not hard-coded, so the worker process runs exactly the jobs the
 * container describes. close() waits for the active jobs; close(true) abandons them, and a job
 * abandoned (or whose process was killed) loses its lock, is found stalled by another worker
 * and retried there.
 */
export class BullmqWorkerHost {
  private readonly processors = new Map<string, JobProcessor>();
  private readonly workers: Worker[] = [];

  constructor(private readonly options: BullmqWorkerHostOptions) {}

  register(queueName: string, processor: JobProcessor): this {
    if (this.workers.length > 0) throw new Error('Register every queue before start()');
    if (this.processors.has(queueName)) throw new Error(`Queue ${queueName} already has a processor`);
    this.processors.set(queueName, processor);
    return this;
  }

  /** Starts the workers and resolves once each is connected. */
  async start(): Promise<void> {
    if (this.workers.length > 0) throw new Error('Already started');
    for (const [queueName, processor] of this.processors) this.workers.push(this.worker(queueName, processor));
    await Promise.all(this.workers.map((worker) => worker.waitUntilReady()));
  }

  async close(force = false): Promise<void> {
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((worker) => worker.close(force)));
  }

  private worker(queueName: string, processor: JobProcessor): Worker {
    const { logger } = this.options;
    const worker = new Worker(queueName, (job) => processor(job), {
      connection: this.options.connection,
      prefix: this.options.prefix ?? DEFAULT_PREFIX,
      concurrency: 1,
      ...(this.options.name ? { name: this.options.name } : {}),
      ...this.options.stall,
    });
    const fields = (job: Job) => ({ queue: queueName, job_id: job.id, worker: this.options.name });
    worker.on('completed', (job, result: unknown) => {
      const duration = job.finishedOn && job.processedOn ? { duration_ms: job.finishedOn - job.processedOn } : {};
      // Processors return fields only when they did something, so an idle poll stays out of the info log.
      if (result && typeof result === 'object') logger.info({ ...fields(job), ...duration, ...result }, 'job ran');
      else logger.debug({ ...fields(job), ...duration }, 'job ran');
    });
    worker.on('failed', (job, error) => {
      logger.error({ queue: queueName, job_id: job?.id, attempts_made: job?.attemptsMade, err: error }, 'job failed');
    });
    worker.on('stalled', (jobId) => logger.warn({ queue: queueName, job_id: jobId }, 'job stalled: its worker died or lost its lock; retrying it'));
    worker.on('error', (error) => logger.error({ queue: queueName, err: error }, 'worker error'));
    return worker;
  }
}
