import type { Subscription, SubscriptionChange } from './subscription';

/**
 * Each organization's subscription (at most one), and the provider events already handled.
 * Deleting an organization deletes its subscription.
 */
export interface SubscriptionRepository {
  findByOrganization(organizationId: number): Promise<Subscription | null>;
  /** The organization whose subscription has this provider customer id, or null. */
  findOrganizationByCustomer(customerId: string): Promise<number | null>;
  /**
   * Creates or updates the organization's subscription. Null ids, price or period end keep the
   * stored values. Nothing is written, and false returned, when the stored state comes from a
   * later event (`eventAt` greater: providers do not deliver in order) or the organization does
   * not exist.
   */
  upsert(organizationId: number, change: SubscriptionChange): Promise<boolean>;
  /** Remembers a provider event id: true the first time, false for every redelivery. */
  recordEvent(eventId: string, receivedAt: Date): Promise<boolean>;
}
