import type { CheckoutLink, Subscription, SubscriptionState } from '../../core/billing/subscription';
import type { SubscriptionRepository } from '../../core/billing/subscription-repository.port';
import type { InMemoryStore, Table } from './in-memory-store';

interface BillingEventRow {
  eventId: string;
  receivedAt: Date;
}

const copyDate = (date: Date | null) => (date ? new Date(date) : null);

const copy = (row: Subscription): Subscription => ({
  ...row,
  currentPeriodStart: copyDate(row.currentPeriodStart),
  currentPeriodEnd: copyDate(row.currentPeriodEnd),
  eventAt: copyDate(row.eventAt),
  updatedAt: new Date(row.updatedAt),
});

const empty = (organizationId: number, updatedAt: Date): Subscription => ({
  organizationId,
  status: null,
  customerId: null,
  subscriptionId: null,
  priceId: null,
  productId: null,
  currentPeriodStart: null,
  currentPeriodEnd: null,
  cancelAtPeriodEnd: false,
  eventAt: null,
  updatedAt,
});

/**
 * Billing records in the shared InMemoryStore (it knows which organizations exist, and its
 * transactions cover both tables). Deleting an organization deletes its record.
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
      matches.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime() || a.organizationId - b.organizationId);
      return matches[0]?.organizationId ?? null;
    });
  }

  saveCustomer(organizationId: number, customerId: string, updatedAt: Date): Promise<string | null> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.organizations.has(organizationId)) return null;
      const stored = this.rows.get(organizationId) ?? empty(organizationId, updatedAt);
      if (stored.customerId) return stored.customerId;
      this.rows.set(organizationId, copy({ ...stored, customerId, updatedAt }));
      return customerId;
    });
  }

  applyState(organizationId: number, state: SubscriptionState): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.organizations.has(organizationId)) return false;
      const stored = this.rows.get(organizationId);
      if (stored?.eventAt && stored.eventAt.getTime() > state.eventAt.getTime()) return false;
      this.rows.set(organizationId, copy({ organizationId, ...state }));
      return true;
    });
  }

  linkCheckout(organizationId: number, link: CheckoutLink): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.organizations.has(organizationId)) return false;
      const stored = this.rows.get(organizationId) ?? empty(organizationId, link.updatedAt);
      const provisional = stored.eventAt === null;
      this.rows.set(
        organizationId,
        copy({
          ...stored,
          customerId: stored.customerId ?? link.customerId,
          subscriptionId: provisional ? (link.subscriptionId ?? stored.subscriptionId) : stored.subscriptionId,
          status: provisional ? link.provisionalStatus : stored.status,
          updatedAt: link.updatedAt,
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
