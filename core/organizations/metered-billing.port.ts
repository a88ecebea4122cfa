/**
 * Whether an organization can be billed for metered use (AI overage): declared here, where the
 * organization's settings are changed, and implemented by billing, which knows subscriptions.
 */
export interface MeteredBilling {
  /**
   * True while the organization has a live subscription (active, trialing or past_due), the only
   * thing metered usage can be invoiced on. Inside a transaction it holds that subscription
   * against a concurrent change until the transaction ends: a subscription cannot end between
   * this answer and the write it allows.
   */
  holdLiveSubscription(organizationId: number): Promise<boolean>;
}
