import type Stripe from 'stripe';
import * as v from 'valibot';
import type { BillingEvent, CheckoutSessionState } from '../../core/billing/billing-provider.port';
import { isSubscriptionStatus } from '../../core/billing/subscription';

/** Every id this service stores lives in a varchar(255). */
const STRIPE_ID_MAX = 255;
const stripeId = v.pipe(v.string(), v.minLength(1), v.maxLength(STRIPE_ID_MAX));
const optionalId = v.nullish(v.union([stripeId, v.looseObject({ id: stripeId })]));
const metadata = v.nullish(v.record(v.string(), v.string()));

/**
 * The parts of an event this service reads, checked before anything reads them. The signature
 * only proves that Stripe (or whoever holds the secret) sent the bytes, not that they have the
 * shape Stripe documents: `{}`, `[]`, `null` or an id over 255 characters must be a clean 400,
 * never a 500 that Stripe would redeliver for days.
 */
const EventEnvelope = v.looseObject({
  id: stripeId,
  type: v.pipe(v.string(), v.minLength(1), v.maxLength(STRIPE_ID_MAX)),
  created: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(253_402_300_799)), // year 9999
  data: v.looseObject({ object: v.looseObject({}) }),
});

const CheckoutSession = v.looseObject({
  mode: v.nullish(v.string()),
  client_reference_id: v.nullish(v.string()),
  metadata,
  customer: optionalId,
  subscription: optionalId,
  payment_status: v.nullish(v.string()),
});

const SubscriptionObject = v.looseObject({
  id: stripeId,
  status: v.string(),
  customer: optionalId,
  metadata,
  items: v.nullish(
    v.looseObject({
      data: v.nullish(
        v.array(
          v.looseObject({
            price: v.nullish(v.looseObject({ id: v.nullish(stripeId) })),
            current_period_end: v.nullish(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(253_402_300_799))),
          }),
        ),
      ),
    }),
  ),
});

const SCHEMA_BY_TYPE: Record<string, v.GenericSchema> = {
  'checkout.session.completed': CheckoutSession,
  // Read exactly as a completed session is, so it must pass the same checks.
  'checkout.session.async_payment_succeeded': CheckoutSession,
  'customer.subscription.created': SubscriptionObject,
  'customer.subscription.updated': SubscriptionObject,
  'customer.subscription.deleted': SubscriptionObject,
};

/** Whether the verified event has the shape toBillingEvent reads; its type's object included. */
export function isWellFormedEvent(event: unknown): event is Stripe.Event {
  // valibot's object schemas also accept arrays.
  if (!v.is(EventEnvelope, event) || Array.isArray(event.data.object)) return false;
  const schema = SCHEMA_BY_TYPE[event.type];
  if (!schema || !v.is(schema, event.data.object)) return !schema;
  // The price id is written into the subscription and the pack id into the credit ledger; other
  // metadata is parsed, not stored.
  const metadata = (event.data.object as { metadata?: Record<string, string> | null }).metadata;
  return [metadata?.price_id, metadata?.pack_id].every((value) => value === undefined || value.length <= STRIPE_ID_MAX);
}

const MAX_INT4 = 2_147_483_647;

/** Our organization id, as written into the session's client reference and the subscription's metadata. */
function organizationIdOf(value: string | null | undefined): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_INT4 ? id : null;
}

/** A pack's token count as written into the session's metadata: a plain non-negative integer, else null. */
function tokensOf(value: string | null | undefined): number | null {
  if (!value || !/^(0|[1-9]\d{0,14})$/.test(value)) return null;
  return Number(value);
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

const fromUnixSeconds = (seconds: number) => new Date(seconds * 1000);
const optionalDate = (seconds: number | null | undefined) => (seconds ? fromUnixSeconds(seconds) : null);

const packOf = (metadata: Record<string, string> | null | undefined) => ({ packId: metadata?.pack_id ?? null, tokens: tokensOf(metadata?.tokens) });

const SESSION_MODES: readonly string[] = ['payment', 'subscription', 'setup'] satisfies CheckoutSessionState['mode'][];
const isSessionMode = (mode: string): mode is CheckoutSessionState['mode'] => SESSION_MODES.includes(mode);

/** A retrieved Checkout Session in provider-neutral terms. */
export function toCheckoutSessionState(session: Stripe.Checkout.Session): CheckoutSessionState {
  const mode = session.mode;
  // A mode Stripe added after this code was written is not guessed at.
  if (!isSessionMode(mode)) throw new Error(`Stripe returned a checkout session in mode ${mode}`);
  return {
    id: session.id,
    organizationId: organizationIdOf(session.client_reference_id ?? session.metadata?.organization_id),
    customerId: idOf(session.customer),
    mode,
    // Only the statuses that mean nothing is owed: one Stripe adds later is not taken for money received.
    paid: session.payment_status === 'paid' || session.payment_status === 'no_payment_required',
    ...packOf(session.metadata),
  };
}

/** Stripe events in provider-neutral terms; anything this service does not act on is `ignored`. */
export function toBillingEvent(event: Stripe.Event): BillingEvent {
  const base = { id: event.id, occurredAt: fromUnixSeconds(event.created) };
  const ignored: BillingEvent = { ...base, kind: 'ignored', type: event.type };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      const organizationId = organizationIdOf(session.client_reference_id ?? session.metadata?.organization_id);
      const customerId = idOf(session.customer);
      // `no_payment_required` is a free trial or a 100 % discount: nothing is owed.
      const paid = session.payment_status !== 'unpaid';
      if (session.mode === 'payment') {
        const { packId, tokens } = packOf(session.metadata);
        return { ...base, kind: 'payment-completed', organizationId, customerId, checkoutSessionId: session.id, packId, tokens, paid };
      }
      if (session.mode !== 'subscription' || event.type !== 'checkout.session.completed') return ignored;
      return { ...base, kind: 'checkout-completed', organizationId, customerId, subscriptionId: idOf(session.subscription), paid };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      const customerId = idOf(subscription.customer);
      // A status Stripe added after this code was written is not guessed at.
      if (!isSubscriptionStatus(subscription.status) || !customerId) return ignored;
      // Since API version 2025-03-31 the billing period lives on the items; one price per subscription here.
      const item = subscription.items?.data?.[0];
      return {
        ...base,
        kind: 'subscription-changed',
        organizationId: organizationIdOf(subscription.metadata?.organization_id),
        customerId,
        subscriptionId: subscription.id,
        status: subscription.status,
        priceId: item?.price?.id ?? null,
        productId: idOf(item?.price?.product),
        currentPeriodStart: optionalDate(item?.current_period_start),
        currentPeriodEnd: optionalDate(item?.current_period_end),
        cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
      };
    }
    default:
      return ignored;
  }
}
