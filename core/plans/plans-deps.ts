import type { SubscriptionRepository } from '../billing/subscription-repository.port';
import type { Clock } from '../shared/clock.port';
import type { LimitFeatureKey, MeteredFeatureKey } from './feature-catalogue';
import type { PlanRepository } from './plan-repository.port';
import type { Period } from './usage-period';

/** How many records a `limit` feature counts, live, in one organization. */
export type LiveCounter = (organizationId: number) => Promise<number>;

/** One live counter per `limit` feature: adding a `limit` to the catalogue fails to compile until its counter exists. */
export type LiveCounters = Record<LimitFeatureKey, LiveCounter>;

/** How much of a `metered` feature an organization used within a period. */
export type MeteredUsageReaders = Record<MeteredFeatureKey, (organizationId: number, period: Period) => Promise<number>>;

/** What a plans use case or service is built from; each takes the `Pick` it needs as its one `deps`. */
export interface PlansDeps {
  plans: PlanRepository;
  subscriptions: Pick<SubscriptionRepository, 'findByOrganization'>;
  /** One live count per `limit` feature. */
  counters: LiveCounters;
  /** Use within a period per `metered` feature. */
  metered: MeteredUsageReaders;
  clock: Clock;
}
