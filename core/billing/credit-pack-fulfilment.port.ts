import type { AuditActor, AuditOrigin } from '../audit/audit-event';

/** A paid one-time checkout, as the payment provider reported it. */
export interface CreditPackPayment {
  organizationId: number;
  /** Unique per purchase: fulfilling the same session twice must credit once. */
  checkoutSessionId: string;
  /** The pack bought, from the checkout's metadata; null when the session carried none. */
  packId: string | null;
  /** The tokens the pack was sold with, from the checkout's metadata; null when absent. */
  tokens: number | null;
  paidAt: Date;
  /** Who settles it, for the `credit_pack.bought` event: the system for a webhook, the member for the verify call. */
  by: { actor: AuditActor; origin: AuditOrigin };
}

/**
 * Credits a paid credit pack to its organization and records `credit_pack.bought` with it, in one
 * transaction (joining the webhook's), so it must use the same store; idempotent by
 * `checkoutSessionId` (the verify route and the webhook may both fulfil one session, at the same
 * time): only the call that credits records the event.
 */
export interface CreditPackFulfilment {
  fulfil(payment: CreditPackPayment): Promise<void>;
}
