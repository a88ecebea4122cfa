import { defineEntity, p } from '@mikro-orm/core';
import type { SubscriptionStatus } from '../../../core/billing/subscription';
import { OrganizationSchema } from './accounts.entities';

/**
 * One row per organization with a provider customer (created on first need) or a subscription.
 * `status` and `event_at` stay null until the first subscription event; `event_at` is when the
 * provider emitted the event the state reflects: older events lose. `product_id` selects the plan.
 */
export const SubscriptionSchema = defineEntity({
  name: 'Subscription',
  tableName: 'subscription',
  properties: {
    organization: p.manyToOne(OrganizationSchema).primary().deleteRule('cascade'),
    status: p.string().$type<SubscriptionStatus>().length(32).nullable(),
    // Serves events that name only the customer (subscriptions created outside our checkout).
    stripeCustomerId: p.string().length(255).nullable().index(),
    stripeSubscriptionId: p.string().length(255).nullable(),
    priceId: p.string().length(255).nullable(),
    productId: p.string().length(255).nullable(),
    currentPeriodStart: p.datetime().columnType('timestamptz').nullable(),
    currentPeriodEnd: p.datetime().columnType('timestamptz').nullable(),
    // The default fills rows written before this column existed; every write sets it.
    cancelAtPeriodEnd: p.boolean().default(false),
    eventAt: p.datetime().columnType('timestamptz').nullable(),
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
