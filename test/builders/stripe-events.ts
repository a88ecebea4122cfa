import Stripe from 'stripe';

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

export const NOW_SECONDS = 1_795_000_000; // 2026-11-18

export function checkoutCompleted(id: string, organizationId: number | string, options: { created?: number; paymentStatus?: string } = {}) {
  return envelope(
    id,
    'checkout.session.completed',
    {
      id: 'cs_test_1',
      object: 'checkout.session',
      mode: 'subscription',
      status: 'complete',
      payment_status: options.paymentStatus ?? 'paid',
      client_reference_id: String(organizationId),
      customer: 'cus_test_1',
      subscription: 'sub_test_1',
      metadata: { organization_id: String(organizationId), price_id: 'price_basic' },
    },
    options.created ?? NOW_SECONDS,
  );
}

export function subscriptionEvent(
  id: string,
  type: 'customer.subscription.created' | 'customer.subscription.updated' | 'customer.subscription.deleted',
  options: { organizationId?: number; status?: string; created?: number; customer?: string; priceId?: string; periodEnd?: number } = {},
) {
  return envelope(
    id,
    type,
    {
      id: 'sub_test_1',
      object: 'subscription',
      customer: options.customer ?? 'cus_test_1',
      status: options.status ?? 'active',
      metadata: options.organizationId === undefined ? {} : { organization_id: String(options.organizationId) },
      items: {
        object: 'list',
        data: [{ id: 'si_1', object: 'subscription_item', price: { id: options.priceId ?? 'price_basic', object: 'price' }, current_period_end: options.periodEnd ?? NOW_SECONDS + 30 * 86_400 }],
      },
    },
    options.created ?? NOW_SECONDS,
  );
}

export const otherEvent = (id: string) => envelope(id, 'invoice.paid', { id: 'in_1', object: 'invoice' }, NOW_SECONDS);

/** The body and a valid `Stripe-Signature` for it (timestamped now, within Stripe's 5-minute tolerance). */
export function signed(event: unknown, secret: string): { payload: string; signature: string } {
  const payload = JSON.stringify(event);
  return { payload, signature: Stripe.webhooks.generateTestHeaderString({ payload, secret }) };
}
