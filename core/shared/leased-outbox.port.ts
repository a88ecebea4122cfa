/**
 * Where a delivery (an email, an overage report) is: waiting (`pending`), leased to a sender
 * (`sending`), delivered (`sent`), or given up on (`dead`). Every adapter stores these words as
 * they are.
 */
export type DeliveryStatus = 'pending' | 'sending' | 'sent' | 'dead';

/**
 * An outbox whose items are delivered by leases. A claimed item is invisible to other claimers
 * until `leaseUntil`, and comes back by itself if its sender dies, so a crash loses nothing
 * (at-least-once: each item carries an identifier the receiver uses to drop a duplicate).
 * `key` is the item's identifier in its outbox.
 */
export interface LeasedOutboxStore<Item> {
  /**
   * Claims up to `limit` items that are due (`pending`, or `sending` with an expired lease) at
   * `now`, oldest first, increments their attempt count and leases them until `leaseUntil`.
   * Concurrent claimers never receive the same item.
   */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<Item[]>;
  /** Terminal: `sent` at `at`. */
  markSent(key: number, at: Date): Promise<void>;
  /**
   * Back to `pending`, due again at `nextAttemptAt`. Only moves an item still `sending`: a
   * sender whose lease ran out must not reopen an item another sender has since delivered.
   * `error` is kept cut to 2,000 characters (core/shared/delivery-error.ts), here and on `markDead`.
   */
  scheduleRetry(key: number, nextAttemptAt: Date, error: string): Promise<void>;
  /** Terminal: `dead`, kept for an operator, never retried. Only moves an item still `sending`. */
  markDead(key: number, error: string): Promise<void>;
}
