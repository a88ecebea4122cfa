import type { BillingDeps } from './billing-deps';
import type { CreditPackFulfilment, CreditPackPayment } from './credit-pack-fulfilment.port';

/**
 * Credits a paid pack to its organization, once per checkout session (the ledger's unique key),
 * however the webhook and the verify call interleave. The tokens are those the checkout was sold
 * with (its metadata), so changing APP_AI_CREDIT_PACKS never changes what a paid customer gets;
 * a session that carries none falls back to the pack's current size. The credit and its
 * `credit_pack.bought` event (the pack and its credits: no payment detail) commit together.
 */
export class FulfilCreditPack implements CreditPackFulfilment {
  constructor(private readonly deps: Pick<BillingDeps, 'ledger' | 'packs' | 'logger' | 'unitOfWork' | 'audit'>) {}

  async fulfil(payment: CreditPackPayment): Promise<void> {
    const tokens = payment.tokens ?? this.deps.packs.find((pack) => pack.id === payment.packId)?.tokens ?? null;
    const fields = { organization_id: payment.organizationId, checkout_session_id: payment.checkoutSessionId, pack_id: payment.packId };
    if (tokens === null || !payment.packId) {
      // Nothing to credit automatically; redelivery would not change that.
      this.deps.logger.error(fields, 'paid credit pack names no known pack: credit it by hand');
      return;
    }
    const packId = payment.packId;
    const credited = await this.deps.unitOfWork.transaction(async () => {
      const done = await this.deps.ledger.credit({
        organizationId: payment.organizationId,
        checkoutSessionId: payment.checkoutSessionId,
        packId,
        tokens,
        at: payment.paidAt,
      });
      if (done) {
        await this.deps.audit.record({
          organizationId: payment.organizationId,
          action: 'credit_pack.bought',
          actor: payment.by.actor,
          target: { type: 'credit_pack', id: packId },
          origin: payment.by.origin,
          details: { pack: packId, credits: tokens },
        });
      }
      return done;
    });
    this.deps.logger.info({ ...fields, tokens, credited }, credited ? 'credit pack credited' : 'credit pack already credited');
  }
}
