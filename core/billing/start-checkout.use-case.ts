import type { Caller } from '../access/caller';
import { BillingCustomers } from './billing-customer';
import type { BillingDeps } from './billing-deps';

/** Already validated: `priceId` is 1..255 characters. */
export interface StartCheckoutInput {
  priceId: string;
}

// A double click (or a client retry) within this window gets the same checkout session back.
const IDEMPOTENCY_WINDOW_MS = 60_000;

/** Starts a hosted checkout that subscribes the caller's organization, as its one customer, to a price. */
export class StartCheckout {
  private readonly customers: BillingCustomers;

  constructor(private readonly deps: Pick<BillingDeps, 'provider' | 'subscriptions' | 'organizations' | 'tokenHasher' | 'clock' | 'settings'>) {
    this.customers = new BillingCustomers(deps);
  }

  async execute(caller: Caller, input: StartCheckoutInput): Promise<{ url: string }> {
    const customerId = await this.customers.customerOf(caller.organizationId);
    const window = Math.floor(this.deps.clock.now().getTime() / IDEMPOTENCY_WINDOW_MS);
    // Hashed: a price id may be up to 255 characters, and so may the provider's keys.
    const idempotencyKey = `checkout-${this.deps.tokenHasher.hash(`${caller.organizationId}|${caller.userId}|${input.priceId}|${window}`)}`;
    return this.deps.provider.createCheckoutSession({
      organizationId: caller.organizationId,
      customerId,
      priceId: input.priceId,
      successUrl: `${this.deps.settings.baseWebUrl}/billing?checkout=success`,
      cancelUrl: `${this.deps.settings.baseWebUrl}/billing?checkout=cancelled`,
      idempotencyKey,
    });
  }
}
