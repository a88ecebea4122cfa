import type { AccountsPorts, AccountsSettings } from '../accounts/accounts-deps';
import type { ApiKeyRepository } from '../api-keys/api-key-repository.port';
import type { RateLimiter } from '../shared/rate-limiter.port';
import type { InvitationRepository } from './invitation-repository.port';
import type { Logger } from '../shared/logger.port';
import type { MeteredBilling } from './metered-billing.port';

/** The accounts ports plus invitations; each use case takes the `Pick` it needs. */
export interface OrganizationsPorts extends Omit<AccountsPorts, 'tokens'> {
  invitations: InvitationRepository;
  /** Read when an API key's invitation is accepted: it stands only while the key does. */
  apiKeys: Pick<ApiKeyRepository, 'findById'>;
}

/** What the invitation email needs to build its link. */
export type InvitationSettings = Pick<AccountsSettings, 'appName' | 'baseWebUrl'>;

/** What an organizations use case is built from; each takes the `Pick` it needs as its one `deps`. */
export interface OrganizationsDeps extends OrganizationsPorts {
  /** Bounds invitations per organization and per recipient. */
  rateLimiter: RateLimiter;
  settings: InvitationSettings;
  /** Settings changes are logged with who made them. */
  logger: Logger;
  /** Whether overage could be invoiced: implemented by billing's subscription records. */
  meteredBilling: MeteredBilling;
}
