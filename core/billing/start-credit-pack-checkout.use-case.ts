import { callerRef, type Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import { DomainError } from '../shared/domain-error';
import { BillingCustomers } from './billing-customer';
import type { BillingDeps } from './billing-deps';

// A double click (or a client retry) within this window gets the same checkout session back.
const IDEMPOTENCY_WINDOW_MS = 60_000;

/** Starts a hosted one-time checkout for a credit pack, for the caller's organization (org_admin). */
export class StartCreditPackCheckout {
  private readonly customers: BillingCustomers;

  constructor(private readonly deps: Pick<BillingDeps, 'provider' | 'subscriptions' | 'organizations' | 'packs' | 'tokenHasher' | 'clock' | 'settings'>) {
    this.customers = new BillingCustomers(deps);
  }

  async execute(caller: Caller, input: { packId: string }): Promise<{ url: string }> {
    requireRole(caller, 'org_admin');
    const pack = this.deps.packs.find((candidate) => candidate.id === input.packId);
    if (!pack) throw new DomainError('VALIDATION_ERROR', 'The request is invalid', { packId: 'Unknown credit pack' });
    const customerId = await this.customers.customerOf(caller.organizationId);
    const window = Math.floor(this.deps.clock.now().getTime() / IDEMPOTENCY_WINDOW_MS);
    const idempotencyKey = `credit-pack-${this.deps.tokenHasher.hash(`${caller.organizationId}|${callerRef(caller)}|${pack.id}|${window}`)}`;
    const back = `${this.deps.settings.baseWebUrl}/billing`;
    return this.deps.provider.createPaymentCheckout({
      organizationId: caller.organizationId,
      customerId,
      item: { name: pack.name, amountCents: pack.amountCents, currency: pack.currency },
      packId: pack.id,
      tokens: pack.tokens,
      // The provider fills in {CHECKOUT_SESSION_ID}: the page can then call verify with it.
      successUrl: `${back}?credit_pack=success&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${back}?credit_pack=cancelled`,
      idempotencyKey,
    });
  }
}
