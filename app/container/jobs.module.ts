import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config';
import { TOKENS } from './tokens';
import { cronRoutes } from '../http/routes/cron.routes';
import type { Database } from '../../adapters/postgres/database';
import { PostgresOutboxDeliveryStore } from '../../adapters/postgres/postgres-outbox-delivery-store';
import { PostgresJobRunLedger } from '../../adapters/postgres/postgres-job-run-ledger';
import type { SessionStore } from '../../core/accounts/session-store.port';
import { DeliverDueEmails } from '../../core/email/deliver-due-emails.use-case';
import type { Mailer } from '../../core/email/mailer.port';
import type { OutboxDeliveryStore } from '../../core/email/outbox-delivery.port';
import { PruneExpiredSessions } from '../../core/jobs/prune-expired-sessions.use-case';
import type { Clock } from '../../core/shared/clock.port';

/** Scheduled work: the session prune (jobs and `/cron`), outbox delivery, the once-per-period guard. */
export function jobsModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const config = (ctx: { get<T>(id: symbol): T }) => ctx.get<AppConfig>(TOKENS.Config);
    bind<OutboxDeliveryStore>(TOKENS.OutboxDeliveryStore).toDynamicValue(
      (ctx) => new PostgresOutboxDeliveryStore(ctx.get<Database>(TOKENS.Database)),
    );
    bind(TOKENS.DeliverDueEmails).toDynamicValue(
      (ctx) =>
        new DeliverDueEmails({
          store: ctx.get<OutboxDeliveryStore>(TOKENS.OutboxDeliveryStore),
          mailer: ctx.get<Mailer>(TOKENS.Mailer),
          clock: ctx.get<Clock>(TOKENS.Clock),
          logger: ctx.get<Logger>(TOKENS.Logger),
          // Only spreads retry times (jitter); nothing secret or expiring depends on it.
          random: Math.random,
        }),
    );
    // TOKENS.SessionStore is bound by the accounts module; it is resolved on first use.
    bind(TOKENS.PruneExpiredSessions).toDynamicValue(
      (ctx) =>
        new PruneExpiredSessions(ctx.get<SessionStore>(TOKENS.SessionStore), ctx.get<Clock>(TOKENS.Clock), {
          retentionDays: config(ctx).cronSessionRetentionDays,
        }),
    );
    bind(TOKENS.JobRunLedger).toDynamicValue((ctx) => new PostgresJobRunLedger(ctx.get<Database>(TOKENS.Database)));
    bind(TOKENS.Routes).toDynamicValue((ctx) => {
      const prune = ctx.get<PruneExpiredSessions>(TOKENS.PruneExpiredSessions);
      return cronRoutes({ secret: config(ctx).cronSecret, pruneSessions: () => prune.execute() });
    });
  });
}
