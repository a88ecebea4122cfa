import { ContainerModule } from 'inversify';
import { TOKENS } from './tokens';
import { cronRoutes } from '../http/routes/cron.routes';
import { PostgresOutboxDeliveryStore } from '../../adapters/postgres/postgres-outbox-delivery-store';
import { PostgresJobRunLedger } from '../../adapters/postgres/postgres-job-run-ledger';
import { DeliverDueEmails } from '../../core/email/deliver-due-emails.use-case';
import { PruneExpiredSessions } from '../../core/jobs/prune-expired-sessions.use-case';
import { PruneSentEmails } from '../../core/email/prune-sent-emails.use-case';
import { PruneExpiredChallenges } from '../../core/mfa/prune-expired-challenges.use-case';
import { PruneExpiredPasskeyChallenges } from '../../core/passkeys/prune-expired-passkey-challenges.use-case';
import { ReportOverage } from '../../core/ai/report-overage.use-case';
import { DEFAULT_DELIVERY_POLICY } from '../../core/shared/leased-delivery';

/**
 * Scheduled work: the session prune (jobs, `/cron` and the CLI), outbox delivery, the release of
 * abandoned AI reservations, AI overage reports (with billing configured), the once-per-period guard.
 */
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
      // The passkeys module binds this store.
      prunePasskeyChallenges: new PruneExpiredPasskeyChallenges({ challenges: ctx.get(TOKENS.PasskeyChallengeStore), clock: ctx.get(TOKENS.Clock) }),
      // The audit module binds it, over its own retention setting.
      pruneAuditEvents: ctx.get(TOKENS.AuditUseCases).pruneAuditEvents,
      // The AI module binds these ports.
      releaseExpiredReservations: ctx.get(TOKENS.AiUseCases).releaseExpiredReservations,
      reportOverage: ctx.get(TOKENS.Config).stripe
        ? new ReportOverage({
            overageReports: ctx.get(TOKENS.OverageReportStore),
            provider: ctx.get(TOKENS.BillingProvider),
            subscriptions: ctx.get(TOKENS.SubscriptionRepository),
            organizations: ctx.get(TOKENS.OrganizationRepository),
            clock: ctx.get(TOKENS.Clock),
            logger: ctx.get(TOKENS.Logger),
            meterEventName: ctx.get(TOKENS.Config).ai.meterEventName,
            random: Math.random,
            // The email outbox's guarantees: 12 attempts over at least 73 minutes, then dead-letter.
            policy: DEFAULT_DELIVERY_POLICY,
          })
        : null,
    }));

    bind(TOKENS.Routes).toDynamicValue((ctx) => {
      const { pruneExpiredSessions, pruneAuditEvents } = ctx.get(TOKENS.JobUseCases);
      return cronRoutes({
        secret: ctx.get(TOKENS.Config).cronSecret,
        pruneSessions: () => pruneExpiredSessions.execute(),
        pruneAuditEvents: () => pruneAuditEvents.execute(),
      });
    });
  });
}
