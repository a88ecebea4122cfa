import type { Clock } from '../shared/clock.port';
import type { Logger } from '../shared/logger.port';
import { MailDeliveryError, type Mailer } from './mailer.port';
import type { ClaimedEmail, OutboxDeliveryStore } from './outbox-delivery.port';

export interface DeliveryPolicy {
  /** Attempts before an email is dead-lettered. */
  maxAttempts: number;
  /** First retry delay; doubles per attempt, capped at `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long a claim hides an email from other senders. Longer than any provider call. */
  leaseMs: number;
  batchSize: number;
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  maxAttempts: 8,
  baseDelayMs: 5_000,
  maxDelayMs: 3_600_000,
  leaseMs: 60_000,
  batchSize: 20,
};

export interface DeliveryReport {
  sent: number;
  retried: number;
  dead: number;
}

/**
 * Sends the emails that are due. Transient failures (network, 429, 5xx) are retried with
 * exponential backoff and full jitter; permanent ones (rejected address, bad request) and
 * emails out of attempts go to dead-letter, logged. Never throws for a delivery failure.
 */
export class DeliverDueEmails {
  constructor(
    private readonly ports: { store: OutboxDeliveryStore; mailer: Mailer; clock: Clock; logger: Logger; random: () => number },
    private readonly policy: DeliveryPolicy = DEFAULT_DELIVERY_POLICY,
  ) {}

  async execute(): Promise<DeliveryReport> {
    const report: DeliveryReport = { sent: 0, retried: 0, dead: 0 };
    const now = this.ports.clock.now();
    const claimed = await this.ports.store.claimDue(now, new Date(now.getTime() + this.policy.leaseMs), this.policy.batchSize);
    for (const email of claimed) report[await this.deliver(email)] += 1;
    return report;
  }

  private async deliver(email: ClaimedEmail): Promise<keyof DeliveryReport> {
    const { store, mailer, clock, logger } = this.ports;
    const fields = { email_id: email.id, tag: email.message.tag, attempt: email.attempts };
    try {
      await mailer.send(email.message);
      await store.markSent(email.id, clock.now());
      logger.info(fields, 'email sent');
      return 'sent';
    } catch (error) {
      const kind = error instanceof MailDeliveryError ? error.kind : 'transient';
      const reason = error instanceof Error ? error.message : String(error);
      if (kind === 'permanent' || email.attempts >= this.policy.maxAttempts) {
        await store.markDead(email.id, reason);
        logger.error({ ...fields, kind, reason }, 'email dead-lettered');
        return 'dead';
      }
      const delay = this.backoffMs(email.attempts);
      await store.scheduleRetry(email.id, new Date(clock.now().getTime() + delay), reason);
      logger.warn({ ...fields, kind, reason, retry_in_ms: delay }, 'email delivery failed, will retry');
      return 'retried';
    }
  }

  /** Full jitter: uniform in [base/2, min(cap, base·2^(n−1))], so retries from many senders spread out. */
  private backoffMs(attempt: number): number {
    const ceiling = Math.min(this.policy.maxDelayMs, this.policy.baseDelayMs * 2 ** (attempt - 1));
    const floor = Math.min(ceiling, this.policy.baseDelayMs / 2);
    return Math.round(floor + this.ports.random() * (ceiling - floor));
  }
}
