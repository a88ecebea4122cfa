import { ContainerModule } from 'inversify';
import { TOKENS } from './tokens';
import { cronRoutes } from '../http/routes/cron.routes';
import { PostgresOutboxDeliveryStore } from '../../adapters/postgres/postgres-outbox-delivery-store';
import { PostgresJobRunLedger } from '../../adapters/postgres/postgres-job-run-ledger';
import { DeliverDueEmails } from '../../core/email/deliver-due-emails.use-case';
import { PruneExpiredSessions } from '../../core/jobs/prune-expired-sessions.use-case';
import { PruneSentEmails } from '../../core/email/prune-sent-emails.use-case';
import { PruneExpiredChallenges } from '../../core/mfa/prune-expired-challenges.use-case';

/** Scheduled work: the session prune (jobs, `/cron` and the CLI), outbox delivery, the once-per-period guard. */
export function jobsModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.OutboxDeliveryStore).toDynamicValue((ctx) => new PostgresOutboxDeliveryStore(ctx.get(TOKENS.Database)));
    bind(TOKENS.JobRunLedger).toDynamicValue((ctx) => new PostgresJobRunLedger(ctx.get(TOKENS.Database)));

    bind(TOKENS.JobUseCases).toDynamicValue((ctx) => ({
      pruneExpiredSessions: new PruneExpiredSessions({
        sessions: ctx.get(TOKENS.SessionStore),
        clock: ctx.get(TOKENS.Clock),
        settings: { retentionDays: ctx.get(TOKENS.Config).cronSessionRetentionDays },
      }),
      deliverDueEmails: new DeliverDueEmails({
        store: ctx.get(TOKENS.OutboxDeliveryStore),
        mailer: ctx.get(TOKENS.Mailer),
        clock: ctx.get(TOKENS.Clock),
        logger: ctx.get(TOKENS.Logger),
        // Only spreads retry times (jitter); nothing secret or expiring depends on it.
        random: Math.random,
      }),
      pruneSentEmails: new PruneSentEmails({
        store: ctx.get(TOKENS.OutboxDeliveryStore),
        clock: ctx.get(TOKENS.Clock),
        settings: { retentionDays: ctx.get(TOKENS.Config).emailRetentionDays },
      }),
      // The challenge store is bound by the MFA module.
      pruneExpiredChallenges: new PruneExpiredChallenges({ challenges: ctx.get(TOKENS.MfaChallengeStore), clock: ctx.get(TOKENS.Clock) }),
    }));

    bind(TOKENS.Routes).toDynamicValue((ctx) => {
      const { pruneExpiredSessions } = ctx.get(TOKENS.JobUseCases);
      return cronRoutes({ secret: ctx.get(TOKENS.Config).cronSecret, pruneSessions: () => pruneExpiredSessions.execute() });
    });
  });
}
