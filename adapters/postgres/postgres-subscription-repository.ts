import type { Subscription, SubscriptionChange } from '../../core/billing/subscription';
import { isSubscriptionStatus } from '../../core/billing/subscription';
import type { SubscriptionRepository } from '../../core/billing/subscription-repository.port';
import type { Selectable } from 'kysely';
import type { Database } from './database';
import type { Tables } from './schema/tables';

type SubscriptionRow = Selectable<Tables['subscription']>;

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

const UPSERT = `insert into subscription
     (organization_id, status, stripe_customer_id, stripe_subscription_id, price_id, current_period_end, event_at, updated_at)
   select $1::int, $2::varchar, $3::varchar, $4::varchar, $5::varchar, $6::timestamptz, $7::timestamptz, $8::timestamptz
   where exists (select 1 from organization where id = $9)
   on conflict (organization_id) do update set
     status = excluded.status,
     stripe_customer_id = coalesce(excluded.stripe_customer_id, subscription.stripe_customer_id),
     stripe_subscription_id = coalesce(excluded.stripe_subscription_id, subscription.stripe_subscription_id),
     price_id = coalesce(excluded.price_id, subscription.price_id),
     current_period_end = coalesce(excluded.current_period_end, subscription.current_period_end),
     event_at = excluded.event_at,
     updated_at = excluded.updated_at
    where subscription.event_at <= excluded.event_at
   returning organization_id`;

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
    const row = await this.database.db
      .selectFrom('subscription')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .executeTakeFirst();
    return row ? toSubscription(row) : null;
  }

  async findOrganizationByCustomer(customerId: string): Promise<number | null> {
    const row = await this.database.db
      .selectFrom('subscription')
      .select('organization_id')
      .where('stripe_customer_id', '=', customerId)
      .orderBy('updated_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row?.organization_id ?? null;
  }

  async upsert(organizationId: number, change: SubscriptionChange): Promise<boolean> {
    const rows = await this.database.select(UPSERT, [
      organizationId,
      change.status,
      change.customerId,
      change.subscriptionId,
      change.priceId,
      change.currentPeriodEnd,
      change.eventAt,
      change.updatedAt,
      organizationId,
    ]);
    return rows.length === 1;
  }

  async recordEvent(eventId: string, receivedAt: Date): Promise<boolean> {
    const rows = await this.database.db
      .insertInto('billing_event')
      .values({ event_id: eventId, received_at: receivedAt })
      .onConflict((conflict) => conflict.column('event_id').doNothing())
      .returning('event_id')
      .execute();
    return rows.length === 1;
  }
}
