import type { TokenHasher } from '../accounts/crypto.port';
import type { UserRepository } from '../accounts/user-repository.port';
import type { Clock } from '../shared/clock.port';
import type { Logger } from '../shared/logger.port';
import type { UnitOfWork } from '../shared/unit-of-work.port';
import type { BillingProvider } from './billing-provider.port';
import type { SubscriptionRepository } from './subscription-repository.port';

/** What a billing use case is built from; each takes the `Pick` it needs as its one `deps`. */
export interface BillingDeps {
  provider: BillingProvider;
  subscriptions: SubscriptionRepository;
  users: UserRepository;
  tokenHasher: TokenHasher;
  unitOfWork: UnitOfWork;
  clock: Clock;
  logger: Logger;
  /** Where the hosted checkout sends the user back to. */
  settings: { baseWebUrl: string };
}
