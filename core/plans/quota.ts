import type { Entitlements, LimitedCreate } from '../access/entitlements.port';
import { DomainError } from '../shared/domain-error';
import { EffectivePlanResolver } from './effective-plan';
import type { FeatureKey, LimitFeatureKey } from './feature-catalogue';
import type { PlansDeps } from './plans-deps';

export const quotaExceeded = (feature: FeatureKey, limit: number) =>
  new DomainError('QUOTA_EXCEEDED', 'Your plan does not allow more of this', { feature_key: feature, limit });

/**
 * The Entitlements of an organization: the `limit` features of its effective plan, applied to its
 * creates. The plan is read first: a plan change racing with a create is ordered after it.
 */
export class LimitQuota implements Entitlements<LimitFeatureKey> {
  private readonly effectivePlans: EffectivePlanResolver;

  constructor(deps: Pick<PlansDeps, 'plans' | 'subscriptions' | 'clock'>) {
    this.effectivePlans = new EffectivePlanResolver(deps);
  }

  async take<T>(organizationId: number, feature: LimitFeatureKey, create: LimitedCreate<T>): Promise<T> {
    const { plan } = await this.effectivePlans.forOrganization(organizationId);
    const limit = plan.features[feature];
    const created = await create(limit);
    if (created === null) throw quotaExceeded(feature, limit);
    return created;
  }
}
