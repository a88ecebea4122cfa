import { callerRef, type Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import { DomainError } from '../shared/domain-error';
import { BillingCustomers } from './billing-customer';
import type { BillingDeps } from './billing-deps';
import { isLiveStatus } from './subscription';

/** Already validated: `priceId` is 1..255 characters. */
export interface StartCheckoutInput {
  priceId: string;
}

// A double click (or a client retry) within this window gets the same checkout session back.
const IDEMPOTENCY_WINDOW_MS = 60_000;

const notOnSale = () => new DomainError('VALIDATION_ERROR', 'The request is invalid', { priceId: 'Not a price of a plan on sale' });

/**
 * Starts a hosted checkout that subscribes the caller's organization, as its one customer, to a
 * price (org_admin). Only a price of an active plan's product, still sold by the provider, is
 * accepted (VALIDATION_ERROR on `priceId`): anything else would subscribe the organization to
 * something no plan describes. While the organization has a live subscription, a second one is
 * refused (CONFLICT, `reason: subscription_exists`): plans change in the billing portal.
 */
export class StartCheckout {
  private readonly customers: BillingCustomers;

  constructor(private readonly deps: Pick<BillingDeps, 'provider' | 'subscriptions' | 'products' | 'organizations' | 'tokenHasher' | 'clock' | 'settings'>) {
    this.customers = new BillingCustomers(deps);
  }

  async execute(caller: Caller, input: StartCheckoutInput): Promise<{ url: string }> {
    requireRole(caller, 'org_admin');
    const { provider, subscriptions, products } = this.deps;
    if (isLiveStatus((await subscriptions.findByOrganization(caller.organizationId))?.status)) {
      throw new DomainError('CONFLICT', 'The organization already has a subscription: change plans in the billing portal', { reason: 'subscription_exists' });
    }
    const price = await provider.findPrice(input.priceId);
    if (!price?.active || !(await products.isOnSale(price.productId))) throw notOnSale();
    const customerId = await this.customers.customerOf(caller.organizationId);
    const window = Math.floor(this.deps.clock.now().getTime() / IDEMPOTENCY_WINDOW_MS);
    // Hashed: a price id may be up to 255 characters, and so may the provider's keys.
    const idempotencyKey = `checkout-${this.deps.tokenHasher.hash(`${caller.organizationId}|${callerRef(caller)}|${input.priceId}|${window}`)}`;
    return provider.createCheckoutSession({
      organizationId: caller.organizationId,
      customerId,
      priceId: input.priceId,
      successUrl: `${this.deps.settings.baseWebUrl}/billing?checkout=success`,
      cancelUrl: `${this.deps.settings.baseWebUrl}/billing?checkout=cancelled`,
      idempotencyKey,
    });
  }
}
