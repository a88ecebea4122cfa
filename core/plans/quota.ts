import { DomainError } from '../shared/domain-error';
import { EffectivePlanResolver } from './effective-plan';
import type { FeatureKey, LimitFeatureKey } from './feature-catalogue';
import type { PlansDeps } from './plans-deps';

export const quotaExceeded = (feature: FeatureKey, limit: number) =>
  new DomainError('QUOTA_EXCEEDED', 'Your plan does not allow more of this', { feature_key: feature, limit });

/**
 * An insert that holds a `limit`: it creates the record only while the organization has fewer
 * than `limit` of them (-1: no limit), and answers null otherwise. The repository makes check
 * and insert one atomic step (`createWithinLimit` on its port), so with one slot left N
 * concurrent creates give exactly one record.
 */
export type LimitedCreate<T> = (limit: number) => Promise<T | null>;

/**
 * The `limit` features of the organization's effective plan, applied to its creates. The plan is
 * read first: a plan change racing with a create is ordered after it. Deleting a record frees its
 * slot, since the check counts live records.
 */
export class LimitQuota {
  private readonly effectivePlans: EffectivePlanResolver;

  constructor(deps: Pick<PlansDeps, 'plans' | 'subscriptions' | 'clock'>) {
    this.effectivePlans = new EffectivePlanResolver(deps);
  }

  /** Runs `create` under the plan's limit for `feature`; QUOTA_EXCEEDED, and nothing stored, when it is reached. */
  async take<T>(organizationId: number, feature: LimitFeatureKey, create: LimitedCreate<T>): Promise<T> {
    const { plan } = await this.effectivePlans.forOrganization(organizationId);
    const limit = plan.features[feature];
    const created = await create(limit);
    if (created === null) throw quotaExceeded(feature, limit);
    return created;
  }
}
