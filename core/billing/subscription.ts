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
 * Statuses in which a subscription is live: it grants its plan and can be billed for metered use.
 * `past_due` stays live while the provider retries the payment (it moves to `unpaid` or `canceled`
 * when it gives up); `incomplete`, `unpaid`, `paused` and `canceled` are not.
 */
export const LIVE_STATUSES: readonly SubscriptionStatus[] = ['active', 'trialing', 'past_due'];

export const isLiveStatus = (status: SubscriptionStatus | null | undefined): boolean => status != null && LIVE_STATUSES.includes(status);

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

/** One provider subscription's last reported state, as kept per subscription. */
export interface ReportedSubscription extends Omit<SubscriptionState, 'customerId'> {
  organizationId: number;
}

/**
 * Which of an organization's subscriptions it is on: a live one before an ended one, then the one
 * reported last (`eventAt`, then the later delivery, `updatedAt`). A customer may hold several
 * subscriptions (a second checkout finished in another tab, one made in the provider's
 * dashboard): an event about an ended one must not take the plan of a live one away.
 */
export function currentSubscription<T extends Pick<ReportedSubscription, 'status' | 'eventAt' | 'updatedAt'>>(reported: readonly T[]): T | null {
  let best: T | null = null;
  for (const candidate of reported) {
    if (!best || precedes(candidate, best)) best = candidate;
  }
  return best;
}

type Ranked = Pick<ReportedSubscription, 'status' | 'eventAt' | 'updatedAt'>;

const precedes = (a: Ranked, b: Ranked): boolean =>
  isLiveStatus(a.status) !== isLiveStatus(b.status)
    ? isLiveStatus(a.status)
    : a.eventAt.getTime() !== b.eventAt.getTime()
      ? a.eventAt.getTime() > b.eventAt.getTime()
      : a.updatedAt.getTime() > b.updatedAt.getTime();
