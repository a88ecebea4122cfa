import type { Caller } from '../access/caller';
import { satisfies } from '../access/role';
import { DomainError } from '../shared/domain-error';
import { BillingCustomers } from './billing-customer';
import type { BillingDeps } from './billing-deps';

/**
 * Opens the provider's billing portal for the caller's organization (payment methods, invoices,
 * plan changes, cancellation), returning to the web app's billing page. Organization admins only.
 */
export class OpenBillingPortal {
  private readonly customers: BillingCustomers;

  constructor(private readonly deps: Pick<BillingDeps, 'provider' | 'subscriptions' | 'organizations' | 'clock' | 'settings'>) {
    this.customers = new BillingCustomers(deps);
  }

  async execute(caller: Caller): Promise<{ url: string }> {
    if (!satisfies(caller.role, 'org_admin')) {
      throw new DomainError('ACCESS_DENIED', 'Your role does not allow this action', { required_role: 'org_admin' });
    }
    const customerId = await this.customers.customerOf(caller.organizationId);
    return this.deps.provider.createPortalSession({ customerId, returnUrl: `${this.deps.settings.baseWebUrl}/billing` });
  }
}
