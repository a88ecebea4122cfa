import type { CheckoutLink, Subscription, SubscriptionState } from '../../core/billing/subscription';
import { LIVE_STATUSES, isSubscriptionStatus } from '../../core/billing/subscription';
import type { SubscriptionRepository } from '../../core/billing/subscription-repository.port';
import type { Selectable } from 'kysely';
import type { Database, PreparedSql } from './database';
import type { Tables } from './schema/tables';
import { columnsOf, type Column } from './schema/columns';

type SubscriptionRow = Selectable<Tables['subscription']>;

const optionalDate = (value: string | Date | null) => (value === null ? null : new Date(value));

export function toSubscription(row: SubscriptionRow): Subscription {
  if (row.status !== null && !isSubscriptionStatus(row.status)) throw new Error(`Unknown subscription status in the database: ${row.status}`);
  return {
    organizationId: row.organization_id,
    status: row.status,
    customerId: row.stripe_customer_id,
    subscriptionId: row.stripe_subscription_id,
    priceId: row.price_id,
    productId: row.product_id,
    currentPeriodStart: optionalDate(row.current_period_start),
    currentPeriodEnd: optionalDate(row.current_period_end),
    cancelAtPeriodEnd: row.cancel_at_period_end,
    eventAt: optionalDate(row.event_at),
    updatedAt: new Date(row.updated_at),
  };
}

// Each write is one statement. `where exists` skips organizations deleted since their checkout
// (instead of failing on the foreign key, which would make the provider redeliver forever); the
// casts type the parameters of the `select`, which PostgreSQL would otherwise read as text.
const IF_ORGANIZATION = 'where exists (select 1 from organization where id = $1)';

const SAVE_CUSTOMER = `insert into subscription (organization_id, stripe_customer_id, cancel_at_period_end, updated_at)
   select $1::int, $2::varchar, false, $3::timestamptz ${IF_ORGANIZATION}
   on conflict (organization_id) do update set
     stripe_customer_id = coalesce(subscription.stripe_customer_id, excluded.stripe_customer_id),
     updated_at = case when subscription.stripe_customer_id is null then excluded.updated_at else subscription.updated_at end
   returning stripe_customer_id`;

// Locks the organization's record (creating it with the event's customer if it has none yet), so
// that its events are recorded and followed one after another.
const LOCK_RECORD = `insert into subscription (organization_id, stripe_customer_id, cancel_at_period_end, updated_at)
   select $1::int, $2::varchar, false, $3::timestamptz ${IF_ORGANIZATION}
   on conflict (organization_id) do update set stripe_customer_id = coalesce(subscription.stripe_customer_id, excluded.stripe_customer_id)
   returning organization_id`;

/** A reported state: every column of `billing_subscription`, in table order (`$1` …). */
const STATE_COLUMNS = columnsOf('billing_subscription');
/** What the organization's record takes from its current subscription: all but the organization. */
const FOLLOWED = STATE_COLUMNS.filter((column) => column !== 'organization_id');
/** What a newer report of the same subscription replaces. */
const REPLACED = FOLLOWED.filter((column) => column !== 'stripe_subscription_id');

// The conflict branch's `where` drops a state older than the one recorded for the same
// subscription (providers do not deliver in order).
const RECORD_STATE = `insert into billing_subscription (${STATE_COLUMNS.join(', ')})
   values (${STATE_COLUMNS.map((_, index) => `$${index + 1}`).join(', ')})
   on conflict (stripe_subscription_id) do update set
     ${REPLACED.map((column) => `${column} = excluded.${column}`).join(', ')}
    where billing_subscription.organization_id = excluded.organization_id and billing_subscription.event_at <= excluded.event_at
   returning stripe_subscription_id`;

const LIVE = LIVE_STATUSES.map((status) => `'${status}'`).join(', ');

// The record follows the current subscription, ranked as core's `currentSubscription` ranks them.
const FOLLOW_CURRENT = `update subscription set
     ${FOLLOWED.map((column) => `${column} = current.${column}`).join(', ')}
   from (select * from billing_subscription where organization_id = $1
         order by status in (${LIVE}) desc, event_at desc, updated_at desc limit 1) current
   where subscription.organization_id = $1`;

// FOR SHARE holds the live subscription until the caller's transaction ends: an event ending it
// waits, and one that ended it first is seen (the row is re-read once its lock is granted).
const HOLD_LIVE = `select 1 from subscription where organization_id = $1 and status in (${LIVE}) for share`;

// A checkout's status is provisional: it holds only while no subscription event was applied.
const LINK_CHECKOUT = `insert into subscription (organization_id, status, stripe_customer_id, stripe_subscription_id, cancel_at_period_end, updated_at)
   select $1::int, $2::varchar, $3::varchar, $4::varchar, false, $5::timestamptz ${IF_ORGANIZATION}
   on conflict (organization_id) do update set
     stripe_customer_id = coalesce(subscription.stripe_customer_id, excluded.stripe_customer_id),
     stripe_subscription_id = case when subscription.event_at is null
       then coalesce(excluded.stripe_subscription_id, subscription.stripe_subscription_id) else subscription.stripe_subscription_id end,
     status = case when subscription.event_at is null then excluded.status else subscription.status end,
     updated_at = excluded.updated_at
   returning organization_id`;

// Prepared: every plan-gated request resolves the organization's plan through it. Named columns,
// never `select *`: a prepared statement fails once a migration changes the table's columns.
const SUBSCRIPTION_COLUMNS = columnsOf('subscription');
const FIND_BY_ORGANIZATION: PreparedSql = {
  name: 'subscription_find_by_organization',
  text: `select ${SUBSCRIPTION_COLUMNS.join(', ')} from subscription where organization_id = $1`,
};

/** Billing records and handled events in PostgreSQL. */
export class PostgresSubscriptionRepository implements SubscriptionRepository {
  constructor(private readonly database: Database) {}

  async findByOrganization(organizationId: number): Promise<Subscription | null> {
    const [row] = await this.database.select<SubscriptionRow>(FIND_BY_ORGANIZATION, [organizationId]);
    return row ? toSubscription(row) : null;
  }

  async findOrganizationByCustomer(customerId: string): Promise<number | null> {
    const row = await this.database.db.selectFrom('subscription').select('organization_id').where('stripe_customer_id', '=', customerId).executeTakeFirst();
    return row?.organization_id ?? null;
  }

  async saveCustomer(organizationId: number, customerId: string, updatedAt: Date): Promise<string | null> {
    const rows = await this.database.select<{ stripe_customer_id: string }>(SAVE_CUSTOMER, [organizationId, customerId, updatedAt]);
    return rows[0]?.stripe_customer_id ?? null;
  }

  applyState(organizationId: number, state: SubscriptionState): Promise<boolean> {
    return this.database.transaction(async () => {
      if ((await this.database.select(LOCK_RECORD, [organizationId, state.customerId, state.updatedAt])).length === 0) return false;
      const reported: Record<Column<'billing_subscription'>, unknown> = {
        stripe_subscription_id: state.subscriptionId,
        organization_id: organizationId,
        status: state.status,
        price_id: state.priceId,
        product_id: state.productId,
        current_period_start: state.currentPeriodStart,
        current_period_end: state.currentPeriodEnd,
        cancel_at_period_end: state.cancelAtPeriodEnd,
        event_at: state.eventAt,
        updated_at: state.updatedAt,
      };
      const recorded = await this.database.select(
        RECORD_STATE,
        STATE_COLUMNS.map((column) => reported[column]),
      );
      if (recorded.length === 0) return false;
      await this.database.select(FOLLOW_CURRENT, [organizationId]);
      return true;
    });
  }

  async holdLiveSubscription(organizationId: number): Promise<boolean> {
    return (await this.database.select(HOLD_LIVE, [organizationId])).length > 0;
  }

  async linkCheckout(organizationId: number, link: CheckoutLink): Promise<boolean> {
    const rows = await this.database.select(LINK_CHECKOUT, [organizationId, link.provisionalStatus, link.customerId, link.subscriptionId, link.updatedAt]);
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
