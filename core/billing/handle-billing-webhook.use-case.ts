import type { BillingDeps } from './billing-deps';
import type { BillingEvent } from './billing-provider.port';
import type { SubscriptionChange } from './subscription';

export interface BillingWebhookInput {
  /** The request body exactly as received: the signature covers its bytes. */
  rawBody: string;
  /** The provider's signature header; empty when absent. */
  signature: string;
}

/** `skipped`: older than the stored state, or the organization no longer exists. */
export type BillingWebhookOutcome = 'applied' | 'duplicate' | 'ignored' | 'skipped' | 'unknown-organization';

/**
 * Verifies a provider event and applies it to the organization's subscription, once: the event
 * id is recorded in the same transaction as the change, so a failed change is retried by the
 * provider's redelivery and a redelivered event changes nothing.
 */
export class HandleBillingWebhook {
  constructor(
    private readonly deps: Pick<BillingDeps, 'provider' | 'subscriptions' | 'unitOfWork' | 'clock' | 'logger'>,
  ) {}

  async execute(input: BillingWebhookInput): Promise<BillingWebhookOutcome> {
    const event = this.deps.provider.parseWebhook(input.rawBody, input.signature);
    const outcome = await this.deps.unitOfWork.transaction(async () => {
      if (!(await this.deps.subscriptions.recordEvent(event.id, this.deps.clock.now()))) return 'duplicate';
      return this.apply(event);
    });
    this.deps.logger.info({ event_id: event.id, kind: event.kind, outcome }, 'billing event handled');
    return outcome;
  }

  private async apply(event: BillingEvent): Promise<BillingWebhookOutcome> {
    if (event.kind === 'ignored') return 'ignored';
    const organizationId =
      event.organizationId ?? (event.customerId ? await this.deps.subscriptions.findOrganizationByCustomer(event.customerId) : null);
    if (organizationId === null) return 'unknown-organization';
    const written = await this.deps.subscriptions.upsert(organizationId, this.change(event));
    return written ? 'applied' : 'skipped';
  }

  private change(event: Exclude<BillingEvent, { kind: 'ignored' }>): SubscriptionChange {
    const common = { customerId: event.customerId, subscriptionId: event.subscriptionId, priceId: event.priceId, eventAt: event.occurredAt, updatedAt: this.deps.clock.now() };
    if (event.kind === 'checkout-completed') {
      // Later subscription events carry the authoritative status (trialing, past_due …).
      return { ...common, status: event.paid ? 'active' : 'incomplete', currentPeriodEnd: null };
    }
    return { ...common, status: event.status, currentPeriodEnd: event.currentPeriodEnd };
  }
}
