import type Stripe from 'stripe';
import type { BillingEvent } from '../../core/billing/billing-provider.port';
import { isSubscriptionStatus } from '../../core/billing/subscription';

const MAX_INT4 = 2_147_483_647;

/** Our organization id, as written into the session's client reference and the subscription's metadata. */
function organizationIdOf(value: string | null | undefined): number | null {
  if (!value || !/^[1-9]\d{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= MAX_INT4 ? id : null;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value === null || value === undefined ? null : typeof value === 'string' ? value : value.id;

const fromUnixSeconds = (seconds: number) => new Date(seconds * 1000);

/** Stripe events in provider-neutral terms; anything this service does not act on is `ignored`. */
export function toBillingEvent(event: Stripe.Event): BillingEvent {
  const base = { id: event.id, occurredAt: fromUnixSeconds(event.created) };
  const ignored: BillingEvent = { ...base, kind: 'ignored', type: event.type };
  switch (event.type) {
    case 'checkout.session.completed': {
      const session = event.data.object;
      if (session.mode !== 'subscription') return ignored;
      return {
        ...base,
        kind: 'checkout-completed',
        organizationId: organizationIdOf(session.client_reference_id ?? session.metadata?.organization_id),
        customerId: idOf(session.customer),
        subscriptionId: idOf(session.subscription),
        priceId: session.metadata?.price_id ?? null,
        paid: session.payment_status !== 'unpaid',
      };
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
        currentPeriodEnd: item?.current_period_end ? fromUnixSeconds(item.current_period_end) : null,
      };
    }
    default:
      return ignored;
  }
}
