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

/** A one-time payment (a credit pack), priced inline: no price needs to exist at the provider. */
export interface PaymentCheckoutRequest {
  organizationId: number;
  customerId: string;
  /** What the hosted page shows and charges. `currency` is lower-case ISO 4217. */
  item: { name: string; amountCents: number; currency: string };
  /** The pack bought and its tokens: carried on the session, returned with it and with its events. */
  packId: string;
  tokens: number;
  successUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
}

/** A checkout session as the provider knows it now. */
export interface CheckoutSessionState {
  id: string;
  /** From the session's client reference; null when it was not started by this service. */
  organizationId: number | null;
  customerId: string | null;
  mode: 'payment' | 'subscription' | 'setup';
  /** Paid, or nothing to pay. */
  paid: boolean;
  /** From the session's metadata; null when absent. */
  packId: string | null;
  tokens: number | null;
}

/** Usage on a billing meter: `value` units for one customer. */
export interface MeterEvent {
  /** The meter's event name (APP_STRIPE_AI_METER_EVENT). */
  eventName: string;
  customerId: string;
  value: number;
  /** Unique per usage: the provider counts an identifier once, however often it is sent. */
  identifier: string;
  timestamp: Date;
}

/** A price as the provider knows it: what it sells (its product) and whether it is still sold. */
export interface ProviderPrice {
  id: string;
  productId: string;
  /** False once archived at the provider: no new subscription may use it. */
  active: boolean;
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
  /** The tokens the pack was sold with, from the session's metadata (`tokens`); null when absent. */
  tokens: number | null;
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
  /** The price with this id, or null when the provider has none (a made-up or malformed id). */
  findPrice(priceId: string): Promise<ProviderPrice | null>;
  createCheckoutSession(request: CheckoutRequest): Promise<{ url: string }>;
  createPortalSession(request: PortalRequest): Promise<{ url: string }>;
  /** Hosted checkout in payment mode; `VALIDATION_ERROR` is not expected (the price is inline). */
  createPaymentCheckout(request: PaymentCheckoutRequest): Promise<{ url: string }>;
  /** The session with this id, or null when the provider has none (a made-up or foreign id). */
  findCheckoutSession(sessionId: string): Promise<CheckoutSessionState | null>;
  /**
   * Records usage on a billing meter. An identifier the provider already counted is a success.
   * `SERVICE_UNAVAILABLE` is transient (retry later); any other failure is permanent.
   */
  reportMeterEvent(event: MeterEvent): Promise<void>;
  parseWebhook(rawBody: string, signatureHeader: string): BillingEvent;
}
