import Stripe from 'stripe';
import type { BillingEvent } from '../../core/billing/billing-provider.port';

/**
 * Stripe webhook payloads, shaped as Stripe sends them (only the fields this service reads, plus
 * the envelope), and their `Stripe-Signature` headers.
 */
const envelope = (id: string, type: string, object: Record<string, unknown>, created: number) => ({
  id,
  object: 'event',
  api_version: '2026-10-28.endive',
  created,
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  type,
  data: { object },
});

/** A Checkout Session event around `session` as it is now (test/fakes/stripe-fake.ts signs these for the sessions it holds). */
export const checkoutSessionEvent = (
  id: string,
  type: 'checkout.session.completed' | 'checkout.session.async_payment_succeeded',
  session: Record<string, unknown>,
  created: number,
) => envelope(id, type, session, created);

export const NOW_SECONDS = 1_795_000_000; // 2026-11-18

export function checkoutCompleted(
  id: string,
  organizationId: number | string,
  options: {
    created?: number;
    paymentStatus?: string;
    mode?: 'subscription' | 'payment';
    sessionId?: string;
    packId?: string;
    /** A payment session's `tokens` metadata: default 5000000 (pack_5m's), null to leave it out. */
    tokens?: number | string | null;
    customer?: string;
    type?: string;
  } = {},
) {
  const mode = options.mode ?? 'subscription';
  const tokens = options.tokens === undefined ? 5_000_000 : options.tokens;
  return envelope(
    id,
    options.type ?? 'checkout.session.completed',
    {
      id: options.sessionId ?? 'cs_test_1',
      object: 'checkout.session',
      mode,
      status: 'complete',
      payment_status: options.paymentStatus ?? 'paid',
      client_reference_id: String(organizationId),
      customer: options.customer ?? 'cus_test_1',
      subscription: mode === 'subscription' ? 'sub_test_1' : null,
      metadata:
        mode === 'subscription'
          ? { organization_id: String(organizationId), price_id: 'price_basic' }
          : { organization_id: String(organizationId), pack_id: options.packId ?? 'pack_5m', ...(tokens === null ? {} : { tokens: String(tokens) }) },
    },
    options.created ?? NOW_SECONDS,
  );
}

export interface SubscriptionEventOptions {
  organizationId?: number;
  status?: string;
  created?: number;
  customer?: string;
  priceId?: string;
  productId?: string;
  periodStart?: number;
  periodEnd?: number;
  cancelAtPeriodEnd?: boolean;
}

export function subscriptionEvent(
  id: string,
  type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted',
  options: SubscriptionEventOptions = {},
) {
  const price = { id: options.priceId ?? 'price_basic', object: 'price', product: options.productId ?? 'prod_basic' };
  return envelope(
    id,
    type,
    {
      id: 'sub_test_1',
      object: 'subscription',
      customer: options.customer ?? 'cus_test_1',
      status: options.status ?? 'active',
      cancel_at_period_end: options.cancelAtPeriodEnd ?? false,
      metadata: options.organizationId === undefined ? {} : { organization_id: String(options.organizationId) },
      items: {
        object: 'list',
        data: [
          {
            id: 'si_1',
            object: 'subscription_item',
            price,
            current_period_start: options.periodStart ?? NOW_SECONDS,
            current_period_end: options.periodEnd ?? NOW_SECONDS + 30 * 86_400,
          },
        ],
      },
    },
    options.created ?? NOW_SECONDS,
  );
}

export const otherEvent = (id: string) => envelope(id, 'invoice.paid', { id: 'in_1', object: 'invoice' }, NOW_SECONDS);

/** The body and a `Stripe-Signature` for it, timestamped `at` (default now, within Stripe's 5-minute tolerance). */
export function signed(event: unknown, secret: string, at?: Date): { payload: string; signature: string } {
  const payload = JSON.stringify(event);
  const timestamp = at === undefined ? {} : { timestamp: Math.floor(at.getTime() / 1000) };
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret, ...timestamp }) };
}

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

/** The Stripe event a provider-neutral BillingEvent stands for: what StripeBillingProvider must read back as `event`. */
export function stripeEventFor(event: BillingEvent) {
  switch (event.kind) {
    case 'checkout-completed':
      return envelope(
        event.id,
        'checkout.session.completed',
        {
          id: 'cs_test_contract',
          object: 'checkout.session',
          mode: 'subscription',
          status: 'complete',
          payment_status: event.paid ? 'paid' : 'unpaid',
          client_reference_id: event.organizationId === null ? null : String(event.organizationId),
          customer: event.customerId,
          subscription: event.subscriptionId,
          metadata: event.organizationId === null ? {} : { organization_id: String(event.organizationId) },
        },
        unixSeconds(event.occurredAt),
      );
    case 'payment-completed':
      return envelope(
        event.id,
        'checkout.session.completed',
        {
          id: event.checkoutSessionId,
          object: 'checkout.session',
          mode: 'payment',
          status: 'complete',
          payment_status: event.paid ? 'paid' : 'unpaid',
          client_reference_id: event.organizationId === null ? null : String(event.organizationId),
          customer: event.customerId,
          subscription: null,
          metadata: {
            ...(event.organizationId === null ? {} : { organization_id: String(event.organizationId) }),
            ...(event.packId === null ? {} : { pack_id: event.packId }),
            ...(event.tokens === null ? {} : { tokens: String(event.tokens) }),
          },
        },
        unixSeconds(event.occurredAt),
      );
    case 'subscription-changed':
      return envelope(
        event.id,
        event.status === 'canceled' ? 'customer.subscription.deleted' : 'customer.subscription.updated',
        {
          id: event.subscriptionId,
          object: 'subscription',
          customer: event.customerId,
          status: event.status,
          cancel_at_period_end: event.cancelAtPeriodEnd,
          metadata: event.organizationId === null ? {} : { organization_id: String(event.organizationId) },
          items: {
            object: 'list',
            data:
              event.priceId === null && event.currentPeriodEnd === null
                ? []
                : [
                    {
                      id: 'si_contract',
                      object: 'subscription_item',
                      price: event.priceId === null ? null : { id: event.priceId, object: 'price', product: event.productId },
                      current_period_start: event.currentPeriodStart === null ? null : unixSeconds(event.currentPeriodStart),
                      current_period_end: event.currentPeriodEnd === null ? null : unixSeconds(event.currentPeriodEnd),
                    },
                  ],
          },
        },
        unixSeconds(event.occurredAt),
      );
    case 'ignored':
      return envelope(event.id, event.type, { id: 'obj_contract', object: 'unknown' }, unixSeconds(event.occurredAt));
  }
}
