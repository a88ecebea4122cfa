import type { Clock } from './clock.port';
import type { LeasedOutboxStore } from './leased-outbox.port';
import type { Logger } from './logger.port';
import { equalJitterBackoffMs } from './retry-backoff';

export interface DeliveryPolicy {
  /** Attempts before an item is dead-lettered. */
  maxAttempts: number;
  /** First retry delay; doubles per attempt, capped at `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
  /**
   * How long a claim hides an item from other senders. Longer than any provider call: the items
   * of a batch are sent concurrently, so a whole batch takes one provider timeout.
   */
  leaseMs: number;
  /** Items claimed per run, and so the number of concurrent provider calls. */
  batchSize: number;
}

/** 12 attempts over at least 73 minutes, then dead-letter. */
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

/** A failure worth retrying (network, 429, 5xx), or one that will fail again however often it is tried. */
export type FailureKind = 'transient' | 'permanent';

/** One outbox's delivery: its store and provider, and the words its log lines use. */
export interface LeasedDelivery<Item extends { attempts: number }> {
  store: LeasedOutboxStore<Item>;
  clock: Clock;
  logger: Logger;
  random: () => number;
  policy: DeliveryPolicy;
  keyOf(item: Item): number;
  /** Hands the item to its provider; throws when the provider did not take it. */
  send(item: Item): Promise<void>;
  kindOf(failure: unknown): FailureKind;
  /** The item's log fields (never a secret). */
  fieldsOf(item: Item): Record<string, unknown>;
  messages: { sent: string; retried: string; dead: string };
  /** `debug` when the provider already logs each delivery. */
  sentLevel?: 'info' | 'debug';
}

/**
 * Delivers what is due in one outbox: claims a batch under a lease, sends each item, and marks
 * it sent, schedules a retry with equal-jitter backoff, or dead-letters it (a permanent failure,
 * or one out of attempts), logging each outcome. Never throws for a delivery failure; a failing
 * store does throw (after the rest of the batch settled), and its items come back when their
 * lease ends.
 */
export async function deliverDue<Item extends { attempts: number }>(delivery: LeasedDelivery<Item>): Promise<DeliveryReport> {
  const { store, clock, policy } = delivery;
  const report: DeliveryReport = { sent: 0, retried: 0, dead: 0 };
  const now = clock.now();
  const claimed = await store.claimDue(now, new Date(now.getTime() + policy.leaseMs), policy.batchSize);
  // Concurrent, so that every send of the batch ends within one provider timeout, inside the
  // lease; one at a time, the tail of a slow batch would be re-claimed and sent twice.
  const outcomes = await Promise.allSettled(claimed.map((item) => deliverOne(delivery, item)));
  for (const outcome of outcomes) {
    if (outcome.status === 'rejected') throw outcome.reason;
    report[outcome.value] += 1;
  }
  return report;
}

async function deliverOne<Item extends { attempts: number }>(delivery: LeasedDelivery<Item>, item: Item): Promise<keyof DeliveryReport> {
  const { store, clock, logger, policy, messages } = delivery;
  const key = delivery.keyOf(item);
  const fields = { ...delivery.fieldsOf(item), attempt: item.attempts };
  let failure: unknown;
  try {
    await delivery.send(item);
  } catch (error) {
    failure = error ?? new Error('provider rejected without a reason');
  }
  // Outside the try: a store error after a successful send is not a delivery failure, and must
  // not schedule a retry that would deliver the item again.
  if (failure === undefined) {
    await store.markSent(key, clock.now());
    logger[delivery.sentLevel ?? 'info'](fields, messages.sent);
    return 'sent';
  }
  const kind = delivery.kindOf(failure);
  const reason = failure instanceof Error ? failure.message : String(failure);
  if (kind === 'permanent' || item.attempts >= policy.maxAttempts) {
    await store.markDead(key, reason);
    logger.error({ ...fields, kind, reason }, messages.dead);
    return 'dead';
  }
  const delay = equalJitterBackoffMs(policy, item.attempts, delivery.random);
  await store.scheduleRetry(key, new Date(clock.now().getTime() + delay), reason);
  logger.warn({ ...fields, kind, reason, retry_in_ms: delay }, messages.retried);
  return 'retried';
}
