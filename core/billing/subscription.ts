/** The lifecycle states a subscription can be in, as payment providers report them. */
export const SUBSCRIPTION_STATUSES = [
  'incomplete',
  'incomplete_expired',
  'trialing',
  'active',
  'past_due',
  'canceled',
  'unpaid',
  'paused',
] as const;

export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const isSubscriptionStatus = (value: unknown): value is SubscriptionStatus =>
  (SUBSCRIPTION_STATUSES as readonly unknown[]).includes(value);

/** An organization's one subscription, as last reported by the payment provider. */
export interface Subscription {
  organizationId: number;
  status: SubscriptionStatus;
  /** The provider's customer id (Stripe `cus_…`); null until the provider reported one. */
  customerId: string | null;
  /** The provider's subscription id (Stripe `sub_…`). */
  subscriptionId: string | null;
  priceId: string | null;
  currentPeriodEnd: Date | null;
  /** When the provider emitted the event this state comes from: an older event never overwrites it. */
  eventAt: Date;
  updatedAt: Date;
}

/** What one provider event says about a subscription. A null id, price or period end keeps the stored value. */
export type SubscriptionChange = Omit<Subscription, 'organizationId'>;
