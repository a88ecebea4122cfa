import type { Caller } from '../access/caller';
import type { SubscriptionStatus } from '../billing/subscription';
import { EffectivePlanResolver } from './effective-plan';
import { FEATURE_CATALOGUE, FEATURE_KEYS, type FeatureKey, type FeatureKind, type MeteredFeatureKey } from './feature-catalogue';
import type { Plan } from './plan';
import type { LiveCounters, PlansDeps } from './plans-deps';
import type { Period } from './usage-period';

export interface FeatureUsage {
  kind: FeatureKind;
  /** The plan's value: a number (-1 unlimited) for `limit`/`metered`, a boolean for a `flag`. */
  limit: number | boolean;
  /** Live records for a `limit`, use within the period for `metered`; absent for a `flag`. */
  used?: number;
}

export interface CurrentPlan {
  plan: Plan;
  subscription: { status: SubscriptionStatus; currentPeriodEnd: Date | null; cancelAtPeriodEnd: boolean } | null;
  period: Period;
  usage: Record<FeatureKey, FeatureUsage>;
}

/** The caller's organization's effective plan, its subscription, the usage period and the use of every feature. */
export class GetCurrentPlan {
  private readonly effectivePlans: EffectivePlanResolver;

  constructor(private readonly deps: Pick<PlansDeps, 'plans' | 'subscriptions' | 'counters' | 'metered' | 'clock'>) {
    this.effectivePlans = new EffectivePlanResolver(deps);
  }

  async execute(caller: Caller): Promise<CurrentPlan> {
    const { plan, period, subscription } = await this.effectivePlans.forOrganization(caller.organizationId);
    const entries = await Promise.all(
      FEATURE_KEYS.map(async (key): Promise<[FeatureKey, FeatureUsage]> => {
        const kind = FEATURE_CATALOGUE[key].kind;
        const limit = plan.features[key];
        if (kind === 'flag') return [key, { kind, limit }];
        const used =
          kind === 'limit'
            ? await this.deps.counters[key as keyof LiveCounters](caller.organizationId)
            : await this.deps.metered[key as MeteredFeatureKey](caller.organizationId, period);
        return [key, { kind, limit, used }];
      }),
    );
    return {
      plan,
      subscription:
        subscription?.status != null
          ? { status: subscription.status, currentPeriodEnd: subscription.currentPeriodEnd, cancelAtPeriodEnd: subscription.cancelAtPeriodEnd }
          : null,
      period,
      usage: Object.fromEntries(entries) as Record<FeatureKey, FeatureUsage>,
    };
  }
}
