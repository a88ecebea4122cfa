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
    // The customer → organization link every event is applied through: an organization holds at
    // most one customer (the primary key) and a customer belongs to at most one organization.
    stripeCustomerId: p.string().length(255).nullable().unique(),
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

/**
 * Every provider subscription an organization's customer holds, as last reported: an event is
 * ordered against the events of its own subscription only. The organization's `subscription` row
 * follows the current one (a live one before ended ones), so an event about another, ended
 * subscription never takes a live one's plan away.
 */
export const BillingSubscriptionSchema = defineEntity({
  name: 'BillingSubscription',
  tableName: 'billing_subscription',
  properties: {
    stripeSubscriptionId: p.string().length(255).primary(),
    organization: p.manyToOne(OrganizationSchema).deleteRule('cascade').index(),
    status: p.string().$type<SubscriptionStatus>().length(32),
    priceId: p.string().length(255).nullable(),
    productId: p.string().length(255).nullable(),
    currentPeriodStart: p.datetime().columnType('timestamptz').nullable(),
    currentPeriodEnd: p.datetime().columnType('timestamptz').nullable(),
    cancelAtPeriodEnd: p.boolean(),
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
