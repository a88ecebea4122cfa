import type { SubscriptionState } from './subscription';

/**
 * Only what the organization determines, so that a repeated request (same idempotency key) is
 * the same request whoever makes it. No email: the hosted checkout collects it and stores it on
 * the customer.
 */
export interface CustomerRequest {
  organizationId: number;
  /** The organization's name, shown on invoices. */
  name: string;
  /** Derived from the organization id: a repeated request returns the first customer. */
  idempotencyKey: string;
}

export interface CheckoutRequest {
  organizationId: number;
  customerId: string;
  priceId: string;
  successUrl: string;
  cancelUrl: string;
  /** The same key within the provider's retention window returns the same session instead of a new one. */
  idempotencyKey: string;
}

export interface PortalRequest {
  customerId: string;
  returnUrl: string;
}

interface EventBase {
  /** The provider's event id: redeliveries of one event carry the same id. */
  id: string;
  occurredAt: Date;
}

/** A hosted subscription checkout finished; the ids link the organization to its provider records. */
export interface CheckoutCompletedEvent extends EventBase {
  kind: 'checkout-completed';
  /** From the session's client reference; null when the session was not started by this service. */
  organizationId: number | null;
  customerId: string | null;
  subscriptionId: string | null;
  /** Paid, or nothing to pay (a free trial). */
  paid: boolean;
}

/** A one-time payment checkout (a credit pack) finished, paid or with payment still pending. */
export interface PaymentCompletedEvent extends EventBase {
  kind: 'payment-completed';
  organizationId: number | null;
  customerId: string | null;
  /** The checkout session id: what makes fulfilment happen once. */
  checkoutSessionId: string;
  /** What was bought, from the session's metadata (`pack_id`); null when absent. */
  packId: string | null;
  paid: boolean;
}

/**
 * A subscription was created, changed or ended (`canceled`): the subscription's whole state as the
 * provider reports it. When and how it is stored (`eventAt`, `updatedAt`) is the handler's business.
 */
export interface SubscriptionChangedEvent extends EventBase, Omit<SubscriptionState, 'eventAt' | 'updatedAt'> {
  kind: 'subscription-changed';
  /** From the subscription's metadata; null for subscriptions created outside a checkout of ours. */
  organizationId: number | null;
}

/** Any other event type: acknowledged, not acted on. */
export interface IgnoredEvent extends EventBase {
  kind: 'ignored';
  type: string;
}

export type BillingEvent = CheckoutCompletedEvent | PaymentCompletedEvent | SubscriptionChangedEvent | IgnoredEvent;

/**
 * The payment provider. Calls that reach it throw DomainError `SERVICE_UNAVAILABLE` when it
 * cannot be reached or fails on its side; `createCheckoutSession` throws `VALIDATION_ERROR` on
 * the field `priceId` when it refuses the price. `parseWebhook` verifies the signature over the
 * exact raw body and throws DomainError `INVALID_WEBHOOK_SIGNATURE` when it is missing, wrong or
 * too old, and `INVALID_WEBHOOK_EVENT` when a signed body is not an event it can read.
 */
export interface BillingProvider {
  createCustomer(request: CustomerRequest): Promise<{ customerId: string }>;
  createCheckoutSession(request: CheckoutRequest): Promise<{ url: string }>;
  createPortalSession(request: PortalRequest): Promise<{ url: string }>;
  parseWebhook(rawBody: string, signatureHeader: string): BillingEvent;
}
