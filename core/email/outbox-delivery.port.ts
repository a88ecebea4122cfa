import type { EmailMessage } from './mailer.port';

/**
 * Where an outbox email is in its delivery: waiting (`pending`), leased to a sender (`sending`),
 * delivered (`sent`), or given up on (`dead`). Every adapter stores these words as they are.
 */
export type OutboxEmailStatus = 'pending' | 'sending' | 'sent' | 'dead';

export interface ClaimedEmail {
  id: number;
  message: EmailMessage;
  /** Including the attempt this claim starts. */
  attempts: number;
}

/**
 * The delivery side of the email outbox. Claims are leases: a claimed email is invisible to
 * other claimers until `leaseUntil`, and comes back by itself if its sender dies, so a crash
 * loses nothing (at-least-once; the idempotency key lets providers drop the duplicate).
 */
export interface OutboxDeliveryStore {
  /**
   * Claims up to `limit` emails that are due (`pending`, or `sending` with an expired lease) at
   * `now`, oldest first, increments their attempt count and leases them until `leaseUntil`.
   * Concurrent claimers never receive the same email.
   */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedEmail[]>;
  /**
   * Terminal: `sent` at `at`. Erases the subject's bodies (text and HTML) in the same write: they
   * carry live token links, and nobody needs them once the provider has the email.
   */
  markSent(id: number, at: Date): Promise<void>;
  /**
   * Back to `pending`, due again at `nextAttemptAt`. Only moves an email still `sending`: a
   * sender whose lease ran out must not reopen an email another sender has since delivered.
   * `error` is kept cut to 2,000 characters (core/shared/delivery-error.ts), here and on `markDead`.
   */
  scheduleRetry(id: number, nextAttemptAt: Date, error: string): Promise<void>;
  /**
   * Terminal: `dead`, kept for inspection (recipient, subject, error), never retried; its bodies
   * are erased as on `markSent`. Only moves an email still `sending`.
   */
  markDead(id: number, error: string): Promise<void>;
  /**
   * Deletes up to `batchSize` `sent` emails whose `sentAt` is before `cutoff`; returns how many.
   * Call repeatedly until it returns less than `batchSize`.
   */
  pruneSentBefore(cutoff: Date, batchSize: number): Promise<number>;
}
