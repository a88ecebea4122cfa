import { serviceUnavailable } from '../shared/domain-error';
import type { BillingDeps } from './billing-deps';
import type { BillingEvent, PaymentCompletedEvent } from './billing-provider.port';
import { isLiveStatus } from './subscription';
import { subscriptionAuditEvent } from './subscription-audit-event';
import { settingsChangedEvent } from '../organizations/settings-changed-event';
import { NO_ORIGIN, SYSTEM_ACTOR } from '../audit/audit-actor';

export interface BillingWebhookInput {
  /** The request body exactly as received: the signature covers its bytes. */
  rawBody: string;
  /** The provider's signature header; empty when absent. */
  signature: string;
}

/**
 * `skipped`: older than the stored state; `pending`: a payment not yet settled;
 * `unknown-organization`: no organization owns the event's customer; `organization-mismatch`: the
 * event names another organization than the one owning its customer (not applied).
 */
export type BillingWebhookOutcome = 'applied' | 'duplicate' | 'ignored' | 'skipped' | 'pending' | 'unknown-organization' | 'organization-mismatch';

/**
 * Verifies a provider event and applies it once: the event id is recorded in the same
 * transaction as the change, so a failed change is retried by the provider's redelivery and a
 * redelivered event changes nothing. Subscription events replace the subscription state unless
 * a later event's state is stored (providers do not deliver in order); a completed subscription
 * checkout links the organization to its subscription; a paid one-time checkout is handed to the
 * credit-pack fulfilment.
 *
 * An event is applied to the organization that owns its customer, never to the one its metadata
 * names: metadata travels through the provider and can be edited there, the customer link was
 * made by this service when it created the customer. An event whose metadata names another
 * organization is logged and acknowledged, not applied. When the organization's subscription
 * stops being live, its overage switch goes off: nothing could invoice the metered usage.
 *
 * Each change is recorded in the organization's audit log in the same transaction, by the system
 * actor: `subscription.started`, `changed` or `ended` as the organization's record moves (see
 * subscriptionAuditEvent), `organization.settings_changed` when overage goes off, and
 * `credit_pack.bought` by the fulfilment.
 */
export class HandleBillingWebhook {
  constructor(private readonly deps: Pick<BillingDeps, 'provider' | 'subscriptions' | 'organizations' | 'creditPacks' | 'unitOfWork' | 'audit' | 'clock' | 'logger'>) {}

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
    const organizationId = event.customerId ? await this.deps.subscriptions.findOrganizationByCustomer(event.customerId) : null;
    if (organizationId === null) {
      this.deps.logger.warn({ event_id: event.id, customer_id: event.customerId, named_organization_id: event.organizationId }, 'billing event for a customer no organization owns: not applied');
      return 'unknown-organization';
    }
    if (event.organizationId !== null && event.organizationId !== organizationId) {
      this.deps.logger.warn(
        { event_id: event.id, customer_id: event.customerId, organization_id: organizationId, named_organization_id: event.organizationId },
        "billing event names another organization than its customer's owner: not applied",
      );
      return 'organization-mismatch';
    }
    const updatedAt = this.deps.clock.now();
    switch (event.kind) {
      case 'subscription-changed': {
        const { customerId, subscriptionId, status, priceId, productId, currentPeriodStart, currentPeriodEnd, cancelAtPeriodEnd } = event;
        const state = { customerId, subscriptionId, status, priceId, productId, currentPeriodStart, currentPeriodEnd, cancelAtPeriodEnd };
        const applied = await this.recordingMove(organizationId, () =>
          this.deps.subscriptions.applyState(organizationId, { ...state, eventAt: event.occurredAt, updatedAt }),
        );
        if (applied) await this.stopOverageUnlessLive(organizationId, event.id);
        return applied ? 'applied' : 'skipped';
      }
      case 'checkout-completed': {
        const link = { customerId: event.customerId, subscriptionId: event.subscriptionId, updatedAt };
        // Later subscription events carry the authoritative status (trialing, past_due …).
        const written = await this.recordingMove(organizationId, () =>
          this.deps.subscriptions.linkCheckout(organizationId, { ...link, provisionalStatus: event.paid ? 'active' : 'incomplete' }),
        );
        return written ? 'applied' : 'unknown-organization';
      }
      case 'payment-completed':
        return this.fulfil(organizationId, event);
    }
  }

  /**
   * Runs a write to the organization's billing record and records the subscription event its
   * move makes, if any. The organization is held first (as a settings change holds it before the
   * subscription), so the record read before the write is the one the write changes even when
   * the provider delivers two events of one organization at once.
   */
  private async recordingMove(organizationId: number, write: () => Promise<boolean>): Promise<boolean> {
    const { subscriptions, organizations, audit } = this.deps;
    await organizations.lock(organizationId);
    const before = await subscriptions.findByOrganization(organizationId);
    if (!(await write())) return false;
    const event = subscriptionAuditEvent(organizationId, before, await subscriptions.findByOrganization(organizationId));
    if (event) await audit.record(event);
    return true;
  }

  /** Overage is billed on the subscription: without a live one, the switch goes off. */
  private async stopOverageUnlessLive(organizationId: number, eventId: string): Promise<void> {
    const { subscriptions, organizations, logger } = this.deps;
    if (isLiveStatus((await subscriptions.findByOrganization(organizationId))?.status)) return;
    const before = await organizations.findSettings(organizationId);
    if (!before?.overageEnabled) return;
    const after = await organizations.updateSettings(organizationId, { overageEnabled: false });
    const event = after && settingsChangedEvent(organizationId, before, after, { actor: SYSTEM_ACTOR, origin: NO_ORIGIN });
    if (event) await this.deps.audit.record(event);
    logger.info({ organization_id: organizationId, event_id: eventId }, 'AI overage turned off: the organization has no live subscription');
  }

  private async fulfil(organizationId: number, event: PaymentCompletedEvent): Promise<BillingWebhookOutcome> {
    // An asynchronous payment method settles later, in its own event.
    if (!event.paid) return 'pending';
    if (!this.deps.creditPacks) {
      // Answering 503 keeps the payment: the provider redelivers for days, until fulfilment exists.
      this.deps.logger.error({ event_id: event.id, checkout_session_id: event.checkoutSessionId }, 'paid credit pack but no fulfilment is configured');
      throw serviceUnavailable('Credit packs cannot be fulfilled yet', 3600);
    }
    await this.deps.creditPacks.fulfil({ organizationId, checkoutSessionId: event.checkoutSessionId, packId: event.packId, tokens: event.tokens, paidAt: event.occurredAt, by: { actor: SYSTEM_ACTOR, origin: NO_ORIGIN } });
    return 'applied';
  }
}
