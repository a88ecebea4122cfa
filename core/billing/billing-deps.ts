import type { TokenHasher } from '../accounts/crypto.port';
import type { OrganizationRepository } from '../accounts/organization-repository.port';
import type { Clock } from '../shared/clock.port';
import type { Logger } from '../shared/logger.port';
import type { UnitOfWork } from '../shared/unit-of-work.port';
import type { BillingProvider } from './billing-provider.port';
import type { CreditPackFulfilment } from './credit-pack-fulfilment.port';
import type { ProductCatalogue } from './product-catalogue.port';
import type { SubscriptionRepository } from './subscription-repository.port';
import type { CreditLedger } from './credit-ledger.port';
import type { CreditPack } from './credit-pack';
import type { AuditLog } from '../audit/audit-log.port';

/** What a billing use case is built from; each takes the `Pick` it needs as its one `deps`. */
export interface BillingDeps {
  provider: BillingProvider;
  subscriptions: SubscriptionRepository;
  /** What a subscription checkout may sell: the products of active plans. */
  products: ProductCatalogue;
  organizations: Pick<OrganizationRepository, 'findById' | 'findSettings' | 'updateSettings' | 'lock'>;
  /** Null until credit packs are sold: a paid one then fails, so the provider redelivers it later. */
  creditPacks: CreditPackFulfilment | null;
  /** The packs on sale (APP_AI_CREDIT_PACKS). */
  packs: readonly CreditPack[];
  ledger: CreditLedger;
  tokenHasher: TokenHasher;
  unitOfWork: UnitOfWork;
  /** Subscriptions and credit packs are recorded in the organization's audit log. */
  audit: AuditLog;
  clock: Clock;
  logger: Logger;
  /** Where hosted pages (checkout, portal) send the user back to. */
  settings: { baseWebUrl: string };
}
