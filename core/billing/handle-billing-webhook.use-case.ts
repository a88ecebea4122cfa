import { serviceUnavailable } from '../shared/domain-error';
import type { BillingDeps } from './billing-deps';
import type { BillingEvent, PaymentCompletedEvent } from './billing-provider.port';

export interface BillingWebhookInput {
  /** The request body exactly as received: the signature covers its bytes. */
  rawBody: string;
  /** The provider's signature header; empty when absent. */
  signature: string;
}

/** `skipped`: older than the stored state; `pending`: a payment not yet settled. */
export type BillingWebhookOutcome = 'applied' | 'duplicate' | 'ignored' | 'skipped' | 'pending' | 'unknown-organization';

/**
 * Verifies a provider event and applies it once: the event id is recorded in the same
 * transaction as the change, so a failed change is retried by the provider's redelivery and a
 * redelivered event changes nothing. Subscription events replace the subscription state unless
 * a later event's state is stored (providers do not deliver in order); a completed subscription
 * checkout links the organization to its customer and subscription; a paid one-time checkout is
 * handed to the credit-pack fulfilment.
 */
export class HandleBillingWebhook {
  constructor(private readonly deps: Pick<BillingDeps, 'provider' | 'subscriptions' | 'creditPacks' | 'unitOfWork' | 'clock' | 'logger'>) {}

  async execute(input: BillingWebhookInput): Promise<BillingWebhookOutcome> {
    const { provider, subscriptions, unitOfWork, clock, logger } = this.deps;
    const event = provider.parseWebhook(input.rawBody, input.signature);
    const outcome = await unitOfWork.transaction(async () => {
      if (!(await subscriptions.recordEvent(event.id, clock.now()))) return 'duplicate';
      return this.apply(event);
    });
    logger.info({ event_id: event.id, kind: event.kind, outcome }, 'billing event handled');
    return outcome;
  }

  private async apply(event: BillingEvent): Promise<BillingWebhookOutcome> {
    if (event.kind === 'ignored') return 'ignored';
    const organizationId =
      event.organizationId ?? (event.customerId ? await this.deps.subscriptions.findOrganizationByCustomer(event.customerId) : null);
    if (organizationId === null) return 'unknown-organization';
    const updatedAt = this.deps.clock.now();
    switch (event.kind) {
      case 'subscription-changed': {
        const { customerId, subscriptionId, status, priceId, productId, currentPeriodStart, currentPeriodEnd, cancelAtPeriodEnd } = event;
        const state = { customerId, subscriptionId, status, priceId, productId, currentPeriodStart, currentPeriodEnd, cancelAtPeriodEnd };
        return (await this.deps.subscriptions.applyState(organizationId, { ...state, eventAt: event.occurredAt, updatedAt })) ? 'applied' : 'skipped';
      }
      case 'checkout-completed': {
        const link = { customerId: event.customerId, subscriptionId: event.subscriptionId, updatedAt };
        // Later subscription events carry the authoritative status (trialing, past_due …).
        const written = await this.deps.subscriptions.linkCheckout(organizationId, { ...link, provisionalStatus: event.paid ? 'active' : 'incomplete' });
        return written ? 'applied' : 'unknown-organization';
      }
      case 'payment-completed':
        return this.fulfil(organizationId, event);
    }
  }

  private async fulfil(organizationId: number, event: PaymentCompletedEvent): Promise<BillingWebhookOutcome> {
    // An asynchronous payment method settles later, in its own event.
    if (!event.paid) return 'pending';
    if (!this.deps.creditPacks) {
      // Answering 503 keeps the payment: the provider redelivers for days, until fulfilment exists.
      this.deps.logger.error({ event_id: event.id, checkout_session_id: event.checkoutSessionId }, 'paid credit pack but no fulfilment is configured');
      throw serviceUnavailable('Credit packs cannot be fulfilled yet', 3600);
    }
    await this.deps.creditPacks.fulfil({ organizationId, checkoutSessionId: event.checkoutSessionId, packId: event.packId, tokens: event.tokens, paidAt: event.occurredAt });
    return 'applied';
  }
}
