import { EntitySchema } from '@mikro-orm/core';
import { OrganizationSchema, type OrganizationEntity } from './accounts.entities';

export interface SubscriptionEntity {
  organization: OrganizationEntity;
  status: string;
  stripeCustomerId?: string;
  stripeSubscriptionId?: string;
  priceId?: string;
  currentPeriodEnd?: Date;
  eventAt: Date;
  updatedAt: Date;
}

/**
 * One row per organization that ever started a subscription, written only by provider webhooks.
 * `event_at` is when the provider emitted the event the row reflects: older events lose.
 */
export const SubscriptionSchema = new EntitySchema<SubscriptionEntity>({
  name: 'Subscription',
  tableName: 'subscription',
  properties: {
    organization: { kind: 'm:1', entity: () => OrganizationSchema, primary: true, deleteRule: 'cascade' },
    status: { type: 'string', length: 32 },
    // Serves events that name only the customer (subscriptions created outside our checkout).
    stripeCustomerId: { type: 'string', length: 255, nullable: true, index: true },
    stripeSubscriptionId: { type: 'string', length: 255, nullable: true },
    priceId: { type: 'string', length: 255, nullable: true },
    currentPeriodEnd: { type: 'Date', columnType: 'timestamptz', nullable: true },
    eventAt: { type: 'Date', columnType: 'timestamptz' },
    updatedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});

export interface BillingEventEntity {
  eventId: string;
  receivedAt: Date;
}

/** Provider event ids already handled: a redelivered webhook is acknowledged and skipped. */
export const BillingEventSchema = new EntitySchema<BillingEventEntity>({
  name: 'BillingEvent',
  tableName: 'billing_event',
  properties: {
    eventId: { type: 'string', length: 255, primary: true },
    receivedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
