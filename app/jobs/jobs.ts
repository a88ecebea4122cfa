import type { Container } from 'inversify';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { AppConfig } from '../config/config';
import type { Infrastructure } from '../container/infrastructure';
import { TOKENS } from '../container/tokens';
import { isDatabaseUnavailable } from '../../adapters/postgres/connection-errors';
import { InProcessScheduler } from '../../adapters/scheduler/in-process-scheduler';
import type { DeliverDueEmails } from '../../core/email/deliver-due-emails.use-case';
import type { RecurringJob, Scheduler } from '../../core/jobs/job';
import type { PruneExpiredSessions } from '../../core/jobs/prune-expired-sessions.use-case';
import type { PruneSentEmails } from '../../core/email/prune-sent-emails.use-case';
import type { PruneExpiredChallenges } from '../../core/mfa/prune-expired-challenges.use-case';
import type { PruneExpiredPasskeyChallenges } from '../../core/passkeys/prune-expired-passkey-challenges.use-case';
import type { ReleaseExpiredReservations } from '../../core/ai/release-expired-reservations.use-case';
import type { ReportOverage } from '../../core/ai/report-overage.use-case';
import type { PruneAuditEvents } from '../../core/audit/prune-audit-events.use-case';

/** The use cases the recurring jobs run (and `/cron` and the CLI's prune-sessions). */
export interface JobUseCases {
  pruneExpiredSessions: PruneExpiredSessions;
  deliverDueEmails: DeliverDueEmails;
  pruneSentEmails: PruneSentEmails;
  pruneExpiredChallenges: PruneExpiredChallenges;
  /** The same pruning over the passkey challenge store: sign-in options nobody answered. */
  prunePasskeyChallenges: PruneExpiredPasskeyChallenges;
  releaseExpiredReservations: ReleaseExpiredReservations;
  /** Audit events past APP_AUDIT_RETENTION_DAYS, deleted with the session prune's run. */
  pruneAuditEvents: PruneAuditEvents;
  /** Null while billing is not configured: overage reports then wait in their table. */
  reportOverage: ReportOverage | null;
}

export const JOB_NAMES = {
  pruneSessions: 'prune-sessions',
  emailDelivery: 'email-delivery',
  pruneEmails: 'prune-emails',
  releaseAiReservations: 'release-ai-reservations',
  reportAiOverage: 'report-ai-overage',
} as const;

export interface JobPeriods {
  pruneSessionsMs: number;
  emailDeliveryMs: number;
  pruneEmailsMs: number;
  releaseAiReservationsMs: number;
  reportAiOverageMs: number;
}

/**
 * The session prune runs every APP_SESSION_PRUNE_INTERVAL_SECONDS (an hour by default), the sent
 * email prune hourly. The outbox is polled every second by in-process timers (a claim is one
 * indexed upsert, so that is cheap), every 2 s through BullMQ (where every run is a Redis job with
 * its own bookkeeping).
 */
export function jobPeriods(config: Pick<AppConfig, 'sessionPruneIntervalSeconds'>, runner: 'in-process' | 'worker'): JobPeriods {
  return {
    pruneSessionsMs: config.sessionPruneIntervalSeconds * 1_000,
    emailDeliveryMs: runner === 'worker' ? 2_000 : 1_000,
    pruneEmailsMs: 3_600_000,
    // Abandoned reservations only hold credits; a minute late costs nothing.
    releaseAiReservationsMs: 60_000,
    reportAiOverageMs: runner === 'worker' ? 10_000 : 5_000,
  };
}

/**
 * The recurring jobs: one list for the in-process scheduler and the BullMQ worker alike. Email delivery only polls: the outbox rows are the source of truth, so a
 * lost or duplicated trigger costs nothing (claims are leases, sends are idempotent-keyed).
 */
export function recurringJobs(useCases: JobUseCases, periods: JobPeriods): RecurringJob[] {
  const { pruneExpiredSessions: prune, deliverDueEmails: deliver, pruneSentEmails, pruneExpiredChallenges, prunePasskeyChallenges, pruneAuditEvents, releaseExpiredReservations, reportOverage } = useCases;
  const jobs: RecurringJob[] = [
    {
      name: JOB_NAMES.pruneSessions,
      everyMs: periods.pruneSessionsMs,
      run: async () => ({
        pruned_sessions: await prune.execute(),
        pruned_mfa_challenges: await pruneExpiredChallenges.execute(),
        pruned_passkey_challenges: await prunePasskeyChallenges.execute(),
        pruned_audit_events: await pruneAuditEvents.execute(),
      }),
    },
    {
      // Sent emails lose their bodies at once; the rows go after APP_EMAIL_RETENTION_DAYS.
      name: JOB_NAMES.pruneEmails,
      everyMs: periods.pruneEmailsMs,
      run: async () => ({ pruned_emails: await pruneSentEmails.execute() }),
    },
    {
      name: JOB_NAMES.emailDelivery,
      everyMs: periods.emailDeliveryMs,
      run: async () => {
        const report = await deliver.execute();
        return report.sent + report.retried + report.dead > 0 ? { ...report } : undefined;
      },
    },
    {
      name: JOB_NAMES.releaseAiReservations,
      everyMs: periods.releaseAiReservationsMs,
      run: async () => {
        const { released } = await releaseExpiredReservations.execute();
        return released > 0 ? { released_ai_reservations: released } : undefined;
      },
    },
  ];
  if (reportOverage) {
    // Like email delivery, it only polls its table: the reports are the source of truth.
    jobs.push({
      name: JOB_NAMES.reportAiOverage,
      everyMs: periods.reportAiOverageMs,
      run: async () => {
        const report = await reportOverage.execute();
        return report.sent + report.retried + report.dead > 0 ? { ...report } : undefined;
      },
    });
  }
  return jobs;
}

/**
 * Registers the schedules now (in the background, so startup never waits for Redis) and again
 * whenever the connection comes back: a Redis restarted without persistence, flushed or failed
 * over to an empty replica has lost them, and the jobs would silently stop. Registering is an
 * idempotent upsert, so doing it on every reconnection costs one round trip per job.
 */
export function keepSchedulesRegistered(redis: Redis, scheduler: Scheduler, jobs: RecurringJob[], logger: Logger): void {
  const register = (when: string) =>
    scheduler.start(jobs).then(
      () => logger.info({ jobs: jobs.map((job) => job.name) }, `job schedules registered in Redis (${when})`),
      (error: unknown) => logger.warn({ err: { message: (error as Error).message } }, 'could not register the job schedules in Redis; retrying when it reconnects'),
    );
  let started = false;
  redis.on('ready', () => {
    if (started) void register('after a reconnection');
  });
  started = true;
  void register('at startup');
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
    const scheduler = new BullmqScheduler({ connection: infra.redis, prefix: config.redisKeyPrefix });
    const jobs = recurringJobs(container.get(TOKENS.JobUseCases), jobPeriods(config, 'worker'));
    keepSchedulesRegistered(infra.redis, scheduler, jobs, logger);
    return scheduler;
  }
  const scheduler = new InProcessScheduler({
    ledger: container.get(TOKENS.JobRunLedger),
    clock: container.get(TOKENS.Clock),
    logger,
    isOutage: isDatabaseUnavailable,
  });
  await scheduler.start(recurringJobs(container.get(TOKENS.JobUseCases), jobPeriods(config, 'in-process')));
  return scheduler;
}
