import { defineEntity, p } from '@mikro-orm/core';
import { OrganizationSchema } from './accounts.entities';

/**
 * One row per organization that ever started a subscription, written only by provider webhooks.
 * `event_at` is when the provider emitted the event the row reflects: older events lose.
 */
export const SubscriptionSchema = defineEntity({
  name: 'Subscription',
  tableName: 'subscription',
  properties: {
    organization: p.manyToOne(OrganizationSchema).primary().deleteRule('cascade'),
    status: p.string().length(32),
    // Serves events that name only the customer (subscriptions created outside our checkout).
    stripeCustomerId: p.string().length(255).nullable().index(),
    stripeSubscriptionId: p.string().length(255).nullable(),
    priceId: p.string().length(255).nullable(),
    currentPeriodEnd: p.datetime().columnType('timestamptz').nullable(),
    eventAt: p.datetime().columnType('timestamptz'),
    updatedAt: p.datetime().columnType('timestamptz'),
  },
});

/** Provider event ids already handled: a redelivered webhook is acknowledged and skipped. */
export const BillingEventSchema = defineEntity({
  name: 'BillingEvent',
  tableName: 'billing_event',
  properties: {
    eventId: p.string().length(255).primary(),
    receivedAt: p.datetime().columnType('timestamptz'),
  },
});
