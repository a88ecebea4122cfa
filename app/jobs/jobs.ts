import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config';
import type { Infrastructure } from '../container/infrastructure';
import { TOKENS } from '../container/tokens';
import { InProcessScheduler } from '../../adapters/scheduler/in-process-scheduler';
import type { DeliverDueEmails } from '../../core/email/deliver-due-emails.use-case';
import type { RecurringJob, Scheduler } from '../../core/jobs/job';
import type { PruneExpiredSessions } from '../../core/jobs/prune-expired-sessions.use-case';

/** The use cases the recurring jobs run (and `/cron` and the CLI's prune-sessions). */
export interface JobUseCases {
  pruneExpiredSessions: PruneExpiredSessions;
  deliverDueEmails: DeliverDueEmails;
}

export const JOB_NAMES = { pruneSessions: 'prune-sessions', emailDelivery: 'email-delivery' } as const;

export interface JobPeriods {
  pruneSessionsMs: number;
  emailDeliveryMs: number;
}

const HOUR_MS = 3_600_000;

/** Timers in `npm start`: a claim is one indexed upsert, so polling the outbox every second is cheap. */
export const IN_PROCESS_PERIODS: JobPeriods = { pruneSessionsMs: HOUR_MS, emailDeliveryMs: 1_000 };
/** BullMQ: every run is a Redis job with its own bookkeeping, so the outbox is polled less often. */
export const WORKER_PERIODS: JobPeriods = { pruneSessionsMs: HOUR_MS, emailDeliveryMs: 2_000 };

/**
 * The recurring jobs: one list for the in-process scheduler and the BullMQ worker alike. Email delivery only polls: the outbox rows are the source of truth, so a
 * lost or duplicated trigger costs nothing (claims are leases, sends are idempotent-keyed).
 */
export function recurringJobs(useCases: JobUseCases, periods: JobPeriods): RecurringJob[] {
  const { pruneExpiredSessions: prune, deliverDueEmails: deliver } = useCases;
  return [
    {
      name: JOB_NAMES.pruneSessions,
      everyMs: periods.pruneSessionsMs,
      run: async () => ({ pruned_sessions: await prune.execute() }),
    },
    {
      name: JOB_NAMES.emailDelivery,
      everyMs: periods.emailDeliveryMs,
      run: async () => {
        const report = await deliver.execute();
        return report.sent + report.retried + report.dead > 0 ? { ...report } : undefined;
      },
    },
  ];
}

/**
 * For `npm start`. Without Redis the jobs run here, on timers guarded by PostgreSQL. With Redis
 * this only registers the BullMQ schedules and `npm run worker` runs them; registration does not
 * hold up startup, so the API still serves (and `/health` reports Redis) while Redis is down.
 */
export async function startJobs(config: AppConfig, container: Container, infra: Infrastructure, logger: Logger): Promise<Scheduler> {
  if (config.redisUrl && infra.redis) {
    // Loaded only with Redis: BullMQ is about a second of startup an embedded deployment skips.
    const { BullmqScheduler } = await import('../../adapters/bullmq/bullmq-scheduler');
    const scheduler = new BullmqScheduler({ connection: infra.redis });
    const jobs = recurringJobs(container.get(TOKENS.JobUseCases), WORKER_PERIODS);
    scheduler.start(jobs).then(
      () => logger.info({ jobs: jobs.map((job) => job.name) }, 'job schedules registered in Redis; `npm run worker` runs them'),
      (error: unknown) => logger.error({ err: error }, 'could not register the job schedules in Redis'),
    );
    return scheduler;
  }
  const scheduler = new InProcessScheduler({
    ledger: container.get(TOKENS.JobRunLedger),
    clock: container.get(TOKENS.Clock),
    logger,
  });
  await scheduler.start(recurringJobs(container.get(TOKENS.JobUseCases), IN_PROCESS_PERIODS));
  return scheduler;
}
