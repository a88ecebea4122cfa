/** A credit pack bought and paid for. */
export interface CreditPurchase {
  organizationId: number;
  /** The provider's checkout session: unique among purchases, so a pack is credited once. */
  checkoutSessionId: string;
  packId: string;
  tokens: number;
  at: Date;
}

/**
 * Credit tokens bought in packs. Credits never expire; they are spent by AiCapacity (which keeps
 * the balance) and written here as transactions.
 */
export interface CreditLedger {
  /**
   * Adds the purchase's tokens to the organization's balance unless this checkout session was
   * credited already; true when it credited now. Safe to call concurrently for one session
   * (exactly one call credits). False for an organization that no longer exists.
   */
  credit(purchase: CreditPurchase): Promise<boolean>;
  /** Whether this checkout session has been credited, and to which organization. */
  findPurchase(checkoutSessionId: string): Promise<{ organizationId: number } | null>;
}
