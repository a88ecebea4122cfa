import type { Subscription, SubscriptionChange } from '../../core/billing/subscription';
import type { SubscriptionRepository } from '../../core/billing/subscription-repository.port';
import type { InMemoryStore, Table } from './in-memory-store';

interface BillingEventRow {
  eventId: string;
  receivedAt: Date;
}

const copy = (row: Subscription): Subscription => ({
  ...row,
  currentPeriodEnd: row.currentPeriodEnd ? new Date(row.currentPeriodEnd) : null,
  eventAt: new Date(row.eventAt),
  updatedAt: new Date(row.updatedAt),
});

/**
 * Subscriptions in the shared InMemoryStore (it knows which organizations exist, and its
 * transactions cover both tables). Deleting an organization deletes its subscription.
 */
export class InMemorySubscriptionRepository implements SubscriptionRepository {
  private readonly rows: Map<number, Subscription>;
  private readonly events: Table<BillingEventRow, string>;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<Subscription>('subscription');
    this.events = store.table<BillingEventRow, string>('billing_event');
    store.onDeleteOrganization((organizationId) => this.rows.delete(organizationId));
  }

  findByOrganization(organizationId: number): Promise<Subscription | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.rows.get(organizationId);
      return row ? copy(row) : null;
    });
  }

  findOrganizationByCustomer(customerId: string): Promise<number | null> {
    return this.store.unitOfWork.exclusive(() => {
      const matches = [...this.rows.values()].filter((row) => row.customerId === customerId);
      matches.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
      return matches[0]?.organizationId ?? null;
    });
  }

  upsert(organizationId: number, change: SubscriptionChange): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.organizations.has(organizationId)) return false;
      const stored = this.rows.get(organizationId);
      if (stored && stored.eventAt.getTime() > change.eventAt.getTime()) return false;
      this.rows.set(
        organizationId,
        copy({
          organizationId,
          status: change.status,
          customerId: change.customerId ?? stored?.customerId ?? null,
          subscriptionId: change.subscriptionId ?? stored?.subscriptionId ?? null,
          priceId: change.priceId ?? stored?.priceId ?? null,
          currentPeriodEnd: change.currentPeriodEnd ?? stored?.currentPeriodEnd ?? null,
          eventAt: change.eventAt,
          updatedAt: change.updatedAt,
        }),
      );
      return true;
    });
  }

  recordEvent(eventId: string, receivedAt: Date): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      if (this.events.has(eventId)) return false;
      this.events.set(eventId, { eventId, receivedAt: new Date(receivedAt) });
      return true;
    });
  }
}
