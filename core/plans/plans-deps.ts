import type { SubscriptionRepository } from '../billing/subscription-repository.port';
import type { Clock } from '../shared/clock.port';
import type { MeteredUsageReaders } from './get-current-plan.use-case';
import type { PlanRepository } from './plan-repository.port';
import type { LiveCounters } from './quota';

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
