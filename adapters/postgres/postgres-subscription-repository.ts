import type { Subscription, SubscriptionChange } from '../../core/billing/subscription';
import { isSubscriptionStatus } from '../../core/billing/subscription';
import type { SubscriptionRepository } from '../../core/billing/subscription-repository.port';
import type { Database } from './database';

interface SubscriptionRow {
  organization_id: number;
  status: string;
  stripe_customer_id: string | null;
  stripe_subscription_id: string | null;
  price_id: string | null;
  current_period_end: string | null;
  event_at: string;
  updated_at: string;
}

function toSubscription(row: SubscriptionRow): Subscription {
  if (!isSubscriptionStatus(row.status)) throw new Error(`Unknown subscription status in the database: ${row.status}`);
  return {
    organizationId: row.organization_id,
    status: row.status,
    customerId: row.stripe_customer_id,
    subscriptionId: row.stripe_subscription_id,
    priceId: row.price_id,
    currentPeriodEnd: row.current_period_end === null ? null : new Date(row.current_period_end),
    eventAt: new Date(row.event_at),
    updatedAt: new Date(row.updated_at),
  };
}

/**
 * Subscriptions and handled events in PostgreSQL. The upsert is one statement: the `where` on
 * the conflict branch drops out-of-order events, and the `exists` skips organizations deleted
 * since their checkout (instead of failing on the foreign key, which would make the provider
 * redeliver forever). The casts type the parameters of the `select`, which PostgreSQL would
 * otherwise read as text.
 */
export class PostgresSubscriptionRepository implements SubscriptionRepository {
  constructor(private readonly database: Database) {}

  async findByOrganization(organizationId: number): Promise<Subscription | null> {
    const row = (await this.database.db<SubscriptionRow>('subscription').where({ organization_id: organizationId }).first()) as
      | SubscriptionRow
      | undefined;
    return row ? toSubscription(row) : null;
  }

  async findOrganizationByCustomer(customerId: string): Promise<number | null> {
    const row = (await this.database
      .db('subscription')
      .select('organization_id')
      .where({ stripe_customer_id: customerId })
      .orderBy('updated_at', 'desc')
      .first()) as { organization_id: number } | undefined;
    return row?.organization_id ?? null;
  }

  async upsert(organizationId: number, change: SubscriptionChange): Promise<boolean> {
    const result = await this.database.db.raw<{ rows: unknown[] }>(
      `insert into subscription
         (organization_id, status, stripe_customer_id, stripe_subscription_id, price_id, current_period_end, event_at, updated_at)
       select ?::int, ?::varchar, ?::varchar, ?::varchar, ?::varchar, ?::timestamptz, ?::timestamptz, ?::timestamptz
       where exists (select 1 from organization where id = ?)
       on conflict (organization_id) do update set
         status = excluded.status,
         stripe_customer_id = coalesce(excluded.stripe_customer_id, subscription.stripe_customer_id),
         stripe_subscription_id = coalesce(excluded.stripe_subscription_id, subscription.stripe_subscription_id),
         price_id = coalesce(excluded.price_id, subscription.price_id),
         current_period_end = coalesce(excluded.current_period_end, subscription.current_period_end),
         event_at = excluded.event_at,
         updated_at = excluded.updated_at
        where subscription.event_at <= excluded.event_at
       returning organization_id`,
      [
        organizationId,
        change.status,
        change.customerId,
        change.subscriptionId,
        change.priceId,
        change.currentPeriodEnd,
        change.eventAt,
        change.updatedAt,
        organizationId,
      ],
    );
    return result.rows.length === 1;
  }

  async recordEvent(eventId: string, receivedAt: Date): Promise<boolean> {
    const result = await this.database.db.raw<{ rows: unknown[] }>(
      'insert into billing_event (event_id, received_at) values (?, ?) on conflict (event_id) do nothing returning event_id',
      [eventId, receivedAt],
    );
    return result.rows.length === 1;
  }
}
