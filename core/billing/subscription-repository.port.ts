import type { CheckoutLink, Subscription, SubscriptionState } from './subscription';

/**
 * Each organization's billing record (at most one), and the provider events already handled.
 * Deleting an organization deletes its record. Writes for an organization that does not exist
 * change nothing and answer false / null (its events are acknowledged, not retried forever).
 */
export interface SubscriptionRepository {
  findByOrganization(organizationId: number): Promise<Subscription | null>;
  /** The organization whose record has this provider customer id, or null. */
  findOrganizationByCustomer(customerId: string): Promise<number | null>;
  /**
   * Stores the organization's customer id unless one is stored already, and returns the one
   * stored: of two concurrent first calls, both get the first one's id.
   */
  saveCustomer(organizationId: number, customerId: string, updatedAt: Date): Promise<string | null>;
  /**
   * Replaces the subscription state with what an event reports, unless the stored state comes
   * from a later event (`eventAt` greater; equal applies: the later delivery wins). Returns
   * whether it was written.
   */
  applyState(organizationId: number, state: SubscriptionState): Promise<boolean>;
  /**
   * Records a completed checkout: fills the customer and subscription ids not yet known, and sets
   * the provisional status only while no subscription event has been applied (`eventAt` null).
   */
  linkCheckout(organizationId: number, link: CheckoutLink): Promise<boolean>;
  /** Remembers a provider event id: true the first time, false for every redelivery. */
  recordEvent(eventId: string, receivedAt: Date): Promise<boolean>;
}
