import type { Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import { resourceNotFound } from '../shared/domain-error';
import type { BillingDeps } from './billing-deps';
import { FulfilCreditPack } from './fulfil-credit-pack';
import { auditActor, auditOrigin } from '../audit/audit-actor';

export type CreditPackCheckoutStatus = 'fulfilled' | 'pending';

/**
 * Asks the provider about a credit-pack checkout the user just came back from, and credits it if
 * it is paid: the user need not wait for the webhook. Crediting is once per session whichever of
 * this and the webhook comes first. Another organization's session, or one the provider does not
 * know, is RESOURCE_NOT_FOUND.
 */
export class VerifyCreditPackCheckout {
  private readonly fulfilment: FulfilCreditPack;

  constructor(private readonly deps: Pick<BillingDeps, 'provider' | 'ledger' | 'packs' | 'clock' | 'logger' | 'unitOfWork' | 'audit'>) {
    this.fulfilment = new FulfilCreditPack(deps);
  }

  async execute(caller: Caller, input: { sessionId: string }): Promise<CreditPackCheckoutStatus> {
    requireRole(caller, 'org_admin');
    const notFound = () => resourceNotFound('checkout_session', input.sessionId);
    const credited = await this.deps.ledger.findPurchase(input.sessionId);
    if (credited) {
      if (credited.organizationId !== caller.organizationId) throw notFound();
      return 'fulfilled';
    }
    const session = await this.deps.provider.findCheckoutSession(input.sessionId);
    if (!session || session.mode !== 'payment' || session.organizationId !== caller.organizationId) throw notFound();
    if (!session.paid) return 'pending';
    await this.fulfilment.fulfil({
      organizationId: caller.organizationId,
      checkoutSessionId: session.id,
      packId: session.packId,
      tokens: session.tokens,
      paidAt: this.deps.clock.now(),
      by: { actor: auditActor(caller), origin: auditOrigin(caller) },
    });
    return (await this.deps.ledger.findPurchase(input.sessionId)) ? 'fulfilled' : 'pending';
  }
}
