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

/**
 * An organization's billing record with the payment provider: its customer (created once, on
 * first need) and its one subscription, as last reported by the provider.
 */
export interface Subscription {
  organizationId: number;
  /** Null while the organization has a customer but no subscription was reported yet. */
  status: SubscriptionStatus | null;
  /** The provider's customer id (Stripe `cus_…`). */
  customerId: string | null;
  /** The provider's subscription id (Stripe `sub_…`). */
  subscriptionId: string | null;
  priceId: string | null;
  /** The product the price belongs to: what selects the plan. */
  productId: string | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  /** The subscription ends at `currentPeriodEnd` instead of renewing. */
  cancelAtPeriodEnd: boolean;
  /**
   * When the provider emitted the subscription event this state comes from: an older event never
   * overwrites it. Null until the first subscription event (a completed checkout alone leaves it null).
   */
  eventAt: Date | null;
  updatedAt: Date;
}

/** The whole state one subscription event reports. */
export interface SubscriptionState {
  customerId: string;
  subscriptionId: string;
  status: SubscriptionStatus;
  priceId: string | null;
  productId: string | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  eventAt: Date;
  updatedAt: Date;
}

/** What a completed subscription checkout says: the ids, and a status until a subscription event arrives. */
export interface CheckoutLink {
  customerId: string | null;
  subscriptionId: string | null;
  provisionalStatus: 'active' | 'incomplete';
  updatedAt: Date;
}
