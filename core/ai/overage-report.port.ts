import type { DeliveryStatus, LeasedOutboxStore } from '../shared/leased-outbox.port';

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
export type OverageReportStatus = DeliveryStatus;

/**
 * The overage reports waiting for the billing provider, keyed by usage id: written by
 * AiCapacity.settle in the call's transaction, delivered by ReportOverage with the email
 * outbox's guarantees (core/shared/leased-outbox.port.ts).
 */
export type OverageReportStore = LeasedOutboxStore<DueOverageReport>;
