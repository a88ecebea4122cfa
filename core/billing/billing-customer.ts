import { DomainError } from '../shared/domain-error';
import type { BillingDeps } from './billing-deps';

/**
 * The organization's customer at the payment provider, created on first need (subscription
 * checkout, billing portal, credit-pack checkout) and stored with its subscription record. The
 * idempotency key is the organization id, so concurrent first calls, or a retry after storing
 * failed, get the same customer from the provider; `saveCustomer` keeps the first one stored.
 */
export class BillingCustomers {
  constructor(private readonly deps: Pick<BillingDeps, 'provider' | 'subscriptions' | 'organizations' | 'clock'>) {}

  async customerOf(organizationId: number): Promise<string> {
    const { provider, subscriptions, organizations, clock } = this.deps;
    const stored = (await subscriptions.findByOrganization(organizationId))?.customerId;
    if (stored) return stored;
    const organization = await organizations.findById(organizationId);
    // The session guard just read this organization; a miss means it was deleted mid-request.
    if (!organization) throw new DomainError('UNAUTHORIZED', 'Authentication required');
    const { customerId } = await provider.createCustomer({
      organizationId,
      name: organization.name,
      idempotencyKey: `tenantkit-organization-${organizationId}-customer`,
    });
    const saved = await subscriptions.saveCustomer(organizationId, customerId, clock.now());
    if (!saved) throw new DomainError('UNAUTHORIZED', 'Authentication required');
    return saved;
  }
}
