import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe } from 'vitest';
import { BullmqScheduler } from '../../adapters/bullmq/bullmq-scheduler';
import { BullmqWorkerHost } from '../../adapters/bullmq/bullmq-worker';
import type { RecurringJob, Scheduler } from '../../core/jobs/job';
import { recordingLogger } from '../support/recording-logger';
import { requireRedis, TEST_REDIS_URL } from '../support/postgres';
import { describeSchedulerContract } from './scheduler.contract';

// Under CI=true an unreachable server throws here and fails the file instead of skipping it.
const redis = await requireRedis();

/** Each client speaks as `npm run worker` does: RESP2, blocking reads allowed to wait. */
const connect = () => new Redis(TEST_REDIS_URL, { protocol: 2, maxRetriesPerRequest: null });

/**
 * What `npm run worker` deploys, in one object: the BullMQ scheduler registers the jobs in Redis,
 * a worker per queue runs them (the latest registered definition), stop() closes both.
 */
class BullmqDeployment implements Scheduler {
  private readonly definitions = new Map<string, RecurringJob>();
  private readonly hosts: BullmqWorkerHost[] = [];
  private readonly scheduler: BullmqScheduler;

  constructor(
    private readonly connection: Redis,
    private readonly prefix: string,
  ) {
    this.scheduler = new BullmqScheduler({ connection, prefix });
  }

  async start(jobs: RecurringJob[]): Promise<void> {
    for (const job of jobs) {
      const hosted = this.definitions.has(job.name);
      this.definitions.set(job.name, job);
      if (hosted) continue;
      // Short drain delay: a worker waiting on an empty queue notices the next period's job at once.
      const host = new BullmqWorkerHost({ connection: this.connection, prefix: this.prefix, logger: recordingLogger(), stall: { drainDelay: 1 } });
      host.register(job.name, async () => this.definitions.get(job.name)?.run());
      this.hosts.push(host);
      await host.start();
    }
    await this.scheduler.start(jobs);
  }

  async stop(): Promise<void> {
    await Promise.all(this.hosts.splice(0).map((host) => host.close()));
    await this.scheduler.stop();
  }
}

describe.skipIf(!redis)('BullMQ on Redis', () => {
  describeSchedulerContract('BullMQ job schedulers and workers', { periodMs: 400 }, async () => {
    // A prefix of its own per test: nothing here ever touches another test's or the app's keys.
    const prefix = `tk-test-scheduler-${randomBytes(4).toString('hex')}`;
    const connection = connect();
    const deployment = new BullmqDeployment(connection, prefix);
    return {
      scheduler: deployment,
      async teardown() {
        await deployment.stop();
        const keys = await connection.keys(`${prefix}:*`);
        if (keys.length > 0) await connection.del(...keys);
        await connection.quit().catch(() => connection.disconnect());
      },
    };
  });
});
