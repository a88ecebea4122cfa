import { LIVE_STATUSES, isLiveStatus, type Subscription, type SubscriptionStatus } from '../billing/subscription';
import type { Plan } from './plan';
import type { PlansDeps } from './plans-deps';
import { calendarMonth, subscriptionPeriod, type Period } from './usage-period';

/** Statuses in which a subscription grants its plan: the live ones. */
export const COUNTING_STATUSES: readonly SubscriptionStatus[] = LIVE_STATUSES;

export const subscriptionCounts = (subscription: Subscription | null): boolean => isLiveStatus(subscription?.status);

/** What an organization is on right now, and the period its metered usage counts in. */
export interface EffectivePlan {
  plan: Plan;
  /** True when the plan comes from the subscription rather than being the default. */
  subscribed: boolean;
  period: Period;
}

/**
 * The plan sold as the subscription's product while the subscription counts, with the
 * subscription's current period; otherwise the default plan and the UTC calendar month. A
 * counting subscription to a product no plan is sold as (an operator has not linked it yet)
 * gets the default plan too.
 */
export function selectEffectivePlan(
  subscription: Subscription | null,
  subscribedPlan: Plan | null,
  defaultPlan: Plan,
  now: Date,
): EffectivePlan {
  if (subscriptionCounts(subscription) && subscribedPlan) {
    const { currentPeriodStart: start, currentPeriodEnd: end } = subscription!;
    return { plan: subscribedPlan, subscribed: true, period: start && end ? subscriptionPeriod({ start, end }, now) : calendarMonth(now) };
  }
  return { plan: defaultPlan, subscribed: false, period: calendarMonth(now) };
}

/** Reads what `selectEffectivePlan` needs. Inside a transaction it reads that transaction's view. */
export class EffectivePlanResolver {
  constructor(private readonly deps: Pick<PlansDeps, 'plans' | 'subscriptions' | 'clock'>) {}

  async forOrganization(organizationId: number): Promise<EffectivePlan & { subscription: Subscription | null }> {
    const { plans, subscriptions, clock } = this.deps;
    const subscription = await subscriptions.findByOrganization(organizationId);
    const productId = subscriptionCounts(subscription) ? subscription!.productId : null;
    const subscribedPlan = productId ? await plans.findByStripeProduct(productId) : null;
    const defaultPlan = subscribedPlan ? null : await plans.findDefault();
    const chosen = selectEffectivePlan(subscription, subscribedPlan, (defaultPlan ?? subscribedPlan)!, clock.now());
    return { ...chosen, subscription };
  }
}
