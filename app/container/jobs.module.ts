import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { AppConfig, EmailConfig } from '../config/config';
import { TOKENS } from './tokens';
import { cronRoutes } from '../http/routes/cron.routes';
import type { Database } from '../../adapters/postgres/database';
import { PostgresOutboxDeliveryStore } from '../../adapters/postgres/postgres-outbox-delivery-store';
import { PostgresJobRunLedger } from '../../adapters/postgres/postgres-job-run-ledger';
import { StubMailer } from '../../adapters/email/stub-mailer';
import { PostmarkMailer } from '../../adapters/email/postmark-mailer';
import { SesMailer } from '../../adapters/email/ses-mailer';
import { AzureMailer } from '../../adapters/email/azure-mailer';
import type { SessionStore } from '../../core/accounts/session-store.port';
import { DeliverDueEmails } from '../../core/email/deliver-due-emails.use-case';
import type { Mailer } from '../../core/email/mailer.port';
import type { OutboxDeliveryStore } from '../../core/email/outbox-delivery.port';
import { PruneExpiredSessions } from '../../core/jobs/prune-expired-sessions.use-case';
import type { Clock } from '../../core/shared/clock.port';

/** APP_EMAIL_PROVIDER → the adapter; config.ts has already checked each provider's settings. */
export function createMailer(email: EmailConfig, logger: Logger): Mailer {
  switch (email.provider) {
    case 'stub':
      return new StubMailer(logger);
    case 'postmark':
      return new PostmarkMailer({ serverToken: email.apiKey, senderAddress: email.senderAddress, senderName: email.senderName });
    case 'ses':
      return new SesMailer({ region: email.region, senderAddress: email.senderAddress, senderName: email.senderName });
    case 'azure':
      return new AzureMailer({ connectionString: email.connectionString, senderAddress: email.senderAddress });
  }
}

/** Scheduled work: the session prune (jobs and `/cron`), outbox delivery, the once-per-period guard. */
export function jobsModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const config = (ctx: { get<T>(id: symbol): T }) => ctx.get<AppConfig>(TOKENS.Config);
    bind<Mailer>(TOKENS.Mailer).toDynamicValue((ctx) => createMailer(config(ctx).email, ctx.get<Logger>(TOKENS.Logger)));
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
