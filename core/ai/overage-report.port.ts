/** Overage to report to the billing provider: one per usage record that charged overage. */
export interface DueOverageReport {
  /** The usage record's id: the meter event's identifier, so a repeated report counts once. */
  usageId: number;
  organizationId: number;
  tokens: number;
  occurredAt: Date;
  /** Including the attempt this claim starts. */
  attempts: number;
}

/** Where a report is in its delivery; the same words as the email outbox. */
export type OverageReportStatus = 'pending' | 'sending' | 'sent' | 'dead';

/**
 * The overage reports waiting for the billing provider: written by AiCapacity.settle in the
 * call's transaction, delivered by ReportOverage with the email outbox's guarantees. Claims are
 * leases: a claimed report is invisible to other claimers until `leaseUntil` and comes back if
 * its sender dies.
 */
export interface OverageReportStore {
  /** Claims up to `limit` due reports (pending, or sending with an expired lease), oldest first. */
  claimDue(now: Date, leaseUntil: Date, limit: number): Promise<DueOverageReport[]>;
  markSent(usageId: number, at: Date): Promise<void>;
  /** Back to pending, due at `nextAttemptAt`; only while still `sending`. `error` is kept cut to 2,000 characters (core/shared/delivery-error.ts). */
  scheduleRetry(usageId: number, nextAttemptAt: Date, error: string): Promise<void>;
  /** Given up; kept for an operator, `error` cut as in scheduleRetry. Only while still `sending`. */
  markDead(usageId: number, error: string): Promise<void>;
}
