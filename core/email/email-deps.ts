import type { Clock } from '../shared/clock.port';
import type { DeliveryPolicy } from '../shared/leased-delivery';
import type { Logger } from '../shared/logger.port';
import type { Mailer } from './mailer.port';
import type { OutboxDeliveryStore } from './outbox-delivery.port';

/** What the email jobs are built from; each takes the `Pick` it needs as its one `deps`. */
export interface EmailDeps {
  /** The outbox's delivery side. */
  store: OutboxDeliveryStore;
  mailer: Mailer;
  clock: Clock;
  logger: Logger;
  /** Spreads retry times (jitter). */
  random: () => number;
  /** Attempts, backoff, lease and batch; DEFAULT_DELIVERY_POLICY when left out. */
  policy: DeliveryPolicy;
  settings: EmailRetention;
}

export interface EmailRetention {
  /** Sent emails are kept this long after sending (APP_EMAIL_RETENTION_DAYS); their bodies are already gone. */
  retentionDays: number;
  batchSize?: number;
  maxBatches?: number;
}
