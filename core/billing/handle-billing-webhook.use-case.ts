import type { Clock } from '../shared/clock.port';
import type { Logger } from '../shared/logger.port';
import type { UnitOfWork } from '../shared/unit-of-work.port';
import type { BillingEvent, BillingProvider } from './billing-provider.port';
import type { SubscriptionChange } from './subscription';
import type { SubscriptionRepository } from './subscription-repository.port';

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
    private readonly provider: BillingProvider,
    private readonly subscriptions: SubscriptionRepository,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async execute(input: BillingWebhookInput): Promise<BillingWebhookOutcome> {
    const event = this.provider.parseWebhook(input.rawBody, input.signature);
    const outcome = await this.unitOfWork.transaction(async () => {
      if (!(await this.subscriptions.recordEvent(event.id, this.clock.now()))) return 'duplicate';
      return this.apply(event);
    });
    this.logger.info({ event_id: event.id, kind: event.kind, outcome }, 'billing event handled');
    return outcome;
  }

  private async apply(event: BillingEvent): Promise<BillingWebhookOutcome> {
    if (event.kind === 'ignored') return 'ignored';
    const organizationId =
      event.organizationId ?? (event.customerId ? await this.subscriptions.findOrganizationByCustomer(event.customerId) : null);
    if (organizationId === null) return 'unknown-organization';
    const written = await this.subscriptions.upsert(organizationId, this.change(event));
    return written ? 'applied' : 'skipped';
  }

  private change(event: Exclude<BillingEvent, { kind: 'ignored' }>): SubscriptionChange {
    const common = { customerId: event.customerId, subscriptionId: event.subscriptionId, priceId: event.priceId, eventAt: event.occurredAt, updatedAt: this.clock.now() };
    if (event.kind === 'checkout-completed') {
      // Later subscription events carry the authoritative status (trialing, past_due …).
      return { ...common, status: event.paid ? 'active' : 'incomplete', currentPeriodEnd: null };
    }
    return { ...common, status: event.status, currentPeriodEnd: event.currentPeriodEnd };
  }
}
