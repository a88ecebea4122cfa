import type { CheckoutLink, ReportedSubscription, Subscription, SubscriptionState } from '../../core/billing/subscription';
import { currentSubscription, isLiveStatus } from '../../core/billing/subscription';
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
 * transactions cover every table). Deleting an organization deletes its record and its
 * subscriptions' states.
 */
export class InMemorySubscriptionRepository implements SubscriptionRepository {
  private readonly rows: Map<number, Subscription>;
  /** Each provider subscription's last reported state, by subscription id. */
  private readonly reported: Table<ReportedSubscription, string>;
  private readonly events: Table<BillingEventRow, string>;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<Subscription>('subscription');
    this.reported = store.table<ReportedSubscription, string>('billing_subscription');
    this.events = store.table<BillingEventRow, string>('billing_event');
    store.onDeleteOrganization((organizationId) => {
      this.rows.delete(organizationId);
      for (const [id, state] of this.reported) if (state.organizationId === organizationId) this.reported.delete(id);
    });
  }

  findByOrganization(organizationId: number): Promise<Subscription | null> {
    return this.store.unitOfWork.exclusive(() => {
      const row = this.rows.get(organizationId);
      return row ? copy(row) : null;
    });
  }

  findOrganizationByCustomer(customerId: string): Promise<number | null> {
    return this.store.unitOfWork.exclusive(() => [...this.rows.values()].find((row) => row.customerId === customerId)?.organizationId ?? null);
  }

  saveCustomer(organizationId: number, customerId: string, updatedAt: Date): Promise<string | null> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.organizations.has(organizationId)) return null;
      const stored = this.rows.get(organizationId) ?? empty(organizationId, updatedAt);
      if (stored.customerId) return stored.customerId;
      this.claimCustomer(organizationId, customerId);
      this.rows.set(organizationId, copy({ ...stored, customerId, updatedAt }));
      return customerId;
    });
  }

  applyState(organizationId: number, state: SubscriptionState): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.organizations.has(organizationId)) return false;
      const { customerId, ...reported } = state;
      const recorded = this.reported.get(state.subscriptionId);
      if (recorded && (recorded.organizationId !== organizationId || recorded.eventAt.getTime() > state.eventAt.getTime())) return false;
      this.reported.set(state.subscriptionId, { ...reported, organizationId, eventAt: new Date(state.eventAt), updatedAt: new Date(state.updatedAt) });
      const stored = this.rows.get(organizationId);
      if (!stored?.customerId) this.claimCustomer(organizationId, customerId);
      const ofOrganization = [...this.reported.values()].filter((row) => row.organizationId === organizationId);
      const { organizationId: _owner, ...current } = currentSubscription(ofOrganization)!;
      this.rows.set(organizationId, copy({ organizationId, customerId: stored?.customerId ?? customerId, ...current }));
      return true;
    });
  }

  holdLiveSubscription(organizationId: number): Promise<boolean> {
    // Inside a transaction the store's one lock already holds everything until it ends.
    return this.store.unitOfWork.exclusive(() => isLiveStatus(this.rows.get(organizationId)?.status));
  }

  linkCheckout(organizationId: number, link: CheckoutLink): Promise<boolean> {
    return this.store.unitOfWork.exclusive(() => {
      if (!this.store.organizations.has(organizationId)) return false;
      const stored = this.rows.get(organizationId) ?? empty(organizationId, link.updatedAt);
      if (!stored.customerId && link.customerId) this.claimCustomer(organizationId, link.customerId);
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

  /** A customer belongs to one organization: what PostgreSQL's unique constraint refuses, refused here too. */
  private claimCustomer(organizationId: number, customerId: string): void {
    const owner = [...this.rows.values()].find((row) => row.customerId === customerId && row.organizationId !== organizationId);
    if (owner) throw new Error(`duplicate key value violates unique constraint: customer ${customerId} belongs to organization ${owner.organizationId}`);
  }
}
