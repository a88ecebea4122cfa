import type { EmailMessage } from './mailer.port';

/**
 * Emails caused by a state change are enqueued inside the same UnitOfWork transaction as the
 * change, so either both commit or neither does. Delivery happens later, with retries, and never
 * inside the request. The idempotency key is assigned by the outbox.
 */
export interface EmailOutbox {
  enqueue(message: Omit<EmailMessage, 'idempotencyKey'>): Promise<void>;
}
