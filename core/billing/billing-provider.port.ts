import type { SubscriptionStatus } from './subscription';

export interface CheckoutRequest {
  organizationId: number;
  priceId: string;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
  /** The same key within the provider's retention window returns the same session instead of a new one. */
  idempotencyKey: string;
}

interface EventBase {
  /** The provider's event id: redeliveries of one event carry the same id. */
  id: string;
  occurredAt: Date;
}

/** A hosted checkout finished; the ids link the organization to its provider records. */
export interface CheckoutCompletedEvent extends EventBase {
  kind: 'checkout-completed';
  /** From the session's client reference; null when the session was not started by this service. */
  organizationId: number | null;
  customerId: string | null;
  subscriptionId: string | null;
  priceId: string | null;
  /** Paid, or nothing to pay (a free trial). */
  paid: boolean;
}

/** A subscription was created, changed or ended (`canceled`). */
export interface SubscriptionChangedEvent extends EventBase {
  kind: 'subscription-changed';
  /** From the subscription's metadata; null for subscriptions created outside a checkout of ours. */
  organizationId: number | null;
  customerId: string;
  subscriptionId: string;
  status: SubscriptionStatus;
  priceId: string | null;
  currentPeriodEnd: Date | null;
}

/** Any other event type: acknowledged, not acted on. */
export interface IgnoredEvent extends EventBase {
  kind: 'ignored';
  type: string;
}

export type BillingEvent = CheckoutCompletedEvent | SubscriptionChangedEvent | IgnoredEvent;

/**
 * The payment provider. `createCheckoutSession` throws DomainError `SERVICE_UNAVAILABLE` when the
 * provider cannot be reached or fails on its side, and `VALIDATION_ERROR` on the field `priceId`
 * when it refuses the price. `parseWebhook` verifies the signature over the exact raw body and
 * throws DomainError `INVALID_WEBHOOK_SIGNATURE` when it is missing, wrong or too old, and
 * `INVALID_WEBHOOK_EVENT` when a signed body is not an event it can read.
 */
export interface BillingProvider {
  createCheckoutSession(request: CheckoutRequest): Promise<{ url: string }>;
  parseWebhook(rawBody: string, signatureHeader: string): BillingEvent;
}
