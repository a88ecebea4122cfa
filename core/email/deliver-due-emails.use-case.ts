import type { Clock } from '../shared/clock.port';
import type { Logger } from '../shared/logger.port';
import { equalJitterBackoffMs } from '../shared/retry-backoff';
import { MailDeliveryError, type Mailer } from './mailer.port';
import type { ClaimedEmail, OutboxDeliveryStore } from './outbox-delivery.port';

export interface DeliveryPolicy {
  /** Attempts before an email is dead-lettered. */
  maxAttempts: number;
  /** First retry delay; doubles per attempt, capped at `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * How long a claim hides an email from other senders. Longer than any provider call: the
   * emails of a batch are sent concurrently, so a whole batch takes one provider timeout.
   */
  leaseMs: number;
  /** Emails claimed per run, and so the number of concurrent provider calls. */
  batchSize: number;
}

export const DEFAULT_DELIVERY_POLICY: DeliveryPolicy = {
  maxAttempts: 12,
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
 * exponential backoff and jitter; permanent ones (rejected address, bad request) and emails out
 * of attempts go to dead-letter, logged. Never throws for a delivery failure; a failing store
 * does throw (after the rest of the batch settled), and its emails come back when their lease ends.
 */
export class DeliverDueEmails {
  private readonly policy: DeliveryPolicy;

  constructor(
    private readonly deps: { store: OutboxDeliveryStore; mailer: Mailer; clock: Clock; logger: Logger; random: () => number; policy?: DeliveryPolicy },
  ) {
    this.policy = deps.policy ?? DEFAULT_DELIVERY_POLICY;
  }

  async execute(): Promise<DeliveryReport> {
    const report: DeliveryReport = { sent: 0, retried: 0, dead: 0 };
    const now = this.deps.clock.now();
    const claimed = await this.deps.store.claimDue(now, new Date(now.getTime() + this.policy.leaseMs), this.policy.batchSize);
    // Concurrent, so that every send of the batch ends within one provider timeout, inside the
    // lease; one at a time, the tail of a slow batch would be re-claimed and sent twice.
    const outcomes = await Promise.allSettled(claimed.map((email) => this.deliver(email)));
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') throw outcome.reason;
      report[outcome.value] += 1;
    }
    return report;
  }

  private async deliver(email: ClaimedEmail): Promise<keyof DeliveryReport> {
    const { store, mailer, clock, logger } = this.deps;
    const fields = { email_id: email.id, tag: email.message.tag, attempt: email.attempts };
    let failure: unknown;
    try {
      await mailer.send(email.message);
    } catch (error) {
      failure = error ?? new Error('mailer rejected without a reason');
    }
    // Outside the try: a store error after a successful send is not a delivery failure, and
    // must not schedule a retry that would send the email again.
    if (failure === undefined) {
      await store.markSent(email.id, clock.now());
      if (mailer.logsEachEmail) logger.debug(fields, 'email sent');
      else logger.info(fields, 'email sent');
      return 'sent';
    }
    const kind = failure instanceof MailDeliveryError ? failure.kind : 'transient';
    const reason = failure instanceof Error ? failure.message : String(failure);
    if (kind === 'permanent' || email.attempts >= this.policy.maxAttempts) {
      await store.markDead(email.id, reason);
      logger.error({ ...fields, kind, reason }, 'email dead-lettered');
      return 'dead';
    }
    const delay = equalJitterBackoffMs(this.policy, email.attempts, this.deps.random);
    await store.scheduleRetry(email.id, new Date(clock.now().getTime() + delay), reason);
    logger.warn({ ...fields, kind, reason, retry_in_ms: delay }, 'email delivery failed, will retry');
    return 'retried';
  }
}
