import type { DeliveryStatus, LeasedOutboxStore } from '../shared/leased-outbox.port';
import type { EmailMessage } from './mailer.port';

/** Where an outbox email is in its delivery (core/shared/leased-outbox.port.ts). */
export type OutboxEmailStatus = DeliveryStatus;

export interface ClaimedEmail {
  id: number;
  message: EmailMessage;
  /** Including the attempt this claim starts. */
  attempts: number;
}

/**
 * The delivery side of the email outbox: a leased outbox of emails keyed by their id (the
 * idempotency key lets providers drop a duplicate). Sent or dead, an email's bodies (text and
 * HTML) are erased in the same write: they carry live token links, and nobody needs them once
 * the provider has the email; a dead email keeps recipient, subject and error for inspection.
 */
export interface OutboxDeliveryStore extends LeasedOutboxStore<ClaimedEmail> {
  /**
   * Deletes up to `batchSize` `sent` emails whose `sentAt` is before `cutoff`; returns how many.
   * Call repeatedly until it returns less than `batchSize`.
   */
  pruneSentBefore(cutoff: Date, batchSize: number): Promise<number>;
}
