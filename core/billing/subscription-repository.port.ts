import type { MeteredBilling } from '../organizations/metered-billing.port';
import type { CheckoutLink, Subscription, SubscriptionState } from './subscription';

/**
 * Each organization's billing record (at most one), and the provider events already handled.
 * Deleting an organization deletes its record. Writes for an organization that does not exist
 * change nothing and answer false / null (its events are acknowledged, not retried forever).
 */
export interface SubscriptionRepository extends MeteredBilling {
  findByOrganization(organizationId: number): Promise<Subscription | null>;
  /**
   * The organization that owns this provider customer, or null. The link is made once, when the
   * customer is stored (`saveCustomer`), and is unique both ways: an organization holds at most
   * one customer and a customer belongs to at most one organization.
   */
  findOrganizationByCustomer(customerId: string): Promise<number | null>;
  /**
   * Stores the organization's customer id unless one is stored already, and returns the one
   * stored: of two concurrent first calls, both get the first one's id.
   */
  saveCustomer(organizationId: number, customerId: string, updatedAt: Date): Promise<string | null>;
  /**
   * Records the state one event reports for its subscription, unless a later event of that same
   * subscription is recorded (`eventAt` greater; equal applies: the later delivery wins); then
   * makes the organization's record follow its current subscription (`currentSubscription`: a
   * live one before ended ones), so an event about another, ended subscription of the same
   * customer leaves a live one in place. The stored customer id is never changed. Returns
   * whether the state was recorded.
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
