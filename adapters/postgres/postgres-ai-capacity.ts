import type { Selectable } from 'kysely';
import type { AiCapacity, CapacitySnapshot, Reservation, ReservationRequest, SettledCall } from '../../core/ai/ai-capacity.port';
import { allotmentFree, chargeUsage, planReservation } from '../../core/ai/capacity-rules';
import type { UsageRecord } from '../../core/ai/usage-record';
import type { Period } from '../../core/plans/usage-period';
import type { Database } from './database';
import type { Tables } from './schema/tables';

type ReservationRow = Selectable<Tables['ai_reservation']>;
type UsageRow = Selectable<Tables['llm_usage_log']>;

interface LockedState {
  /** Charged to the allotment in the period, and held for it by calls in flight. */
  charged: string | number;
  held: string | number;
  balance: string | number | null;
}

// The organization row's lock (the same one plan quotas take: every change to an organization's
// capacity is serialized on it). FOR NO KEY UPDATE leaves inserts that only reference the
// organization unblocked.
const LOCK_ORGANIZATION = 'select id from organization where id = $1 for no key update';

// Its capacity, read in a statement of its own once the lock is held: under READ COMMITTED a
// statement sees the data as of its start, so a read in the statement that waited for the lock
// would miss what the previous holder committed (its reservation, its credits taken).
const LOCKED_STATE = `select
    coalesce((select allotment_tokens from ai_period_usage where organization_id = $1 and period_start = $2), 0) as charged,
    coalesce((select sum(allotment_tokens) from ai_reservation where organization_id = $1 and period_start = $2), 0) as held,
    (select balance from ai_credit_account where organization_id = $1) as balance`;

const ADD_TO_BALANCE = `insert into ai_credit_account (organization_id, balance, updated_at) values ($1, $2, $3)
  on conflict (organization_id) do update set balance = ai_credit_account.balance + excluded.balance, updated_at = excluded.updated_at`;

const TAKE_FROM_BALANCE = 'update ai_credit_account set balance = balance - $2, updated_at = $3 where organization_id = $1';

const ADD_TO_PERIOD = `insert into ai_period_usage (organization_id, period_start, allotment_tokens, credit_tokens, overage_tokens, updated_at)
  values ($1, $2, $3, $4, $5, $6)
  on conflict (organization_id, period_start) do update set
    allotment_tokens = ai_period_usage.allotment_tokens + excluded.allotment_tokens,
    credit_tokens = ai_period_usage.credit_tokens + excluded.credit_tokens,
    overage_tokens = ai_period_usage.overage_tokens + excluded.overage_tokens,
    updated_at = excluded.updated_at`;

export const toReservation = (row: ReservationRow): Reservation => ({
  id: row.id,
  organizationId: row.organization_id,
  userId: row.user_id,
  feature: row.feature,
  model: row.model,
  periodStart: new Date(row.period_start),
  allotmentLimit: Number(row.allotment_limit),
  inputEstimate: row.input_estimate,
  allotmentTokens: row.allotment_tokens,
  creditTokens: row.credit_tokens,
  overageTokens: row.overage_tokens,
  maxOutputTokens: row.max_output_tokens,
  overageAllowed: row.overage_allowed,
  createdAt: new Date(row.created_at),
  expiresAt: new Date(row.expires_at),
});

export const toUsageRecord = (row: UsageRow): UsageRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  userId: row.user_id,
  feature: row.feature,
  model: row.model,
  inputTokens: row.input_tokens,
  outputTokens: row.output_tokens,
  allotmentTokens: row.allotment_tokens,
  creditTokens: row.credit_tokens,
  overageTokens: row.overage_tokens,
  costUsd: row.cost_usd === null ? null : Number(row.cost_usd),
  createdAt: new Date(row.created_at),
});

/**
 * The hard cap on PostgreSQL. Every method is one transaction that first locks the
 * organization's row, so reservations, settlements and releases of one organization happen one
 * after another and each sees the others' effects; the rules applied are core's
 * (`capacity-rules.ts`). Credits a call holds leave `ai_credit_account.balance` (never negative,
 * by a check) until settled or released.
 */
export class PostgresAiCapacity implements AiCapacity {
  constructor(private readonly database: Database) {}

  reserve(request: ReservationRequest): Promise<Reservation | null> {
    return this.database.transaction(async () => {
      const state = await this.lock(request.organizationId, request.period.start);
      if (!state) return null;
      const plan = planReservation(
        { allotmentLimit: request.allotmentLimit, allotmentCommitted: state.charged + state.held, creditBalance: state.balance },
        request.inputEstimate,
        request.overageAllowed,
      );
      if (!plan) return null;
      if (plan.creditTokens > 0) await this.addToBalance(request.organizationId, -plan.creditTokens, request.createdAt);
      const row = await this.database.db
        .insertInto('ai_reservation')
        .values({
          organization_id: request.organizationId,
          user_id: request.userId,
          feature: request.feature,
          model: request.model,
          period_start: request.period.start,
          allotment_limit: request.allotmentLimit,
          input_estimate: request.inputEstimate,
          allotment_tokens: plan.allotmentTokens,
          credit_tokens: plan.creditTokens,
          overage_tokens: plan.overageTokens,
          max_output_tokens: plan.maxOutputTokens,
          overage_allowed: request.overageAllowed,
          created_at: request.createdAt,
          expires_at: request.expiresAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toReservation(row);
    });
  }

  settle(reservation: Reservation, call: SettledCall): Promise<UsageRecord | null> {
    return this.database.transaction(async () => {
      const { organizationId, periodStart } = reservation;
      const state = await this.lock(organizationId, periodStart);
      if (!state) return null;
      // Still held? An expired reservation was released already: nothing of it is held any more.
      const stillHeld = await this.database.db.deleteFrom('ai_reservation').where('id', '=', reservation.id).returningAll().executeTakeFirst();
      const held = stillHeld ? toReservation(stillHeld) : { ...reservation, allotmentTokens: 0, creditTokens: 0 };
      // The state was read with this reservation still held (if it was): chargeUsage adds what it
      // holds to what is free, so what is free must not count it a second time.
      const committed = state.charged + state.held;
      const free = { allotment: allotmentFree({ allotmentLimit: reservation.allotmentLimit, allotmentCommitted: committed }), credits: state.balance };
      const charge = chargeUsage(call.inputTokens + call.outputTokens, held, free);
      const balanceChange = held.creditTokens - charge.creditTokens;
      if (balanceChange !== 0) await this.addToBalance(organizationId, balanceChange, call.at);
      await this.database.run(ADD_TO_PERIOD, [organizationId, periodStart, charge.allotmentTokens, charge.creditTokens, charge.overageTokens, call.at]);
      const row = await this.database.db
        .insertInto('llm_usage_log')
        .values((eb) => ({
          organization_id: organizationId,
          // The user may have been deleted since the call began: the row then belongs to nobody.
          user_id: eb.selectFrom('app_user').select('id').where('id', '=', reservation.userId),
          feature: reservation.feature,
          model: reservation.model,
          input_tokens: call.inputTokens,
          output_tokens: call.outputTokens,
          allotment_tokens: charge.allotmentTokens,
          credit_tokens: charge.creditTokens,
          overage_tokens: charge.overageTokens,
          cost_usd: call.costUsd,
          period_start: periodStart,
          created_at: call.at,
        }))
        .returningAll()
        .executeTakeFirstOrThrow();
      if (charge.creditTokens > 0) {
        await this.database.db
          .insertInto('ai_credit_transaction')
          .values({ organization_id: organizationId, kind: 'usage', tokens: -charge.creditTokens, usage_id: row.id, created_at: call.at })
          .execute();
      }
      if (charge.overageTokens > 0) {
        await this.database.db
          .insertInto('ai_overage_report')
          .values({
            usage_id: row.id,
            organization_id: organizationId,
            tokens: charge.overageTokens,
            occurred_at: call.at,
            status: 'pending',
            attempts: 0,
            next_attempt_at: call.at,
            created_at: call.at,
          })
          .execute();
      }
      return toUsageRecord(row);
    });
  }

  release(reservationId: number): Promise<boolean> {
    return this.database.transaction(async () => {
      const row = await this.database.db.selectFrom('ai_reservation').select(['organization_id', 'period_start']).where('id', '=', reservationId).executeTakeFirst();
      if (!row) return false;
      await this.lock(row.organization_id, new Date(row.period_start));
      const released = await this.database.db.deleteFrom('ai_reservation').where('id', '=', reservationId).returningAll().executeTakeFirst();
      if (!released) return false;
      if (released.credit_tokens > 0) await this.addToBalance(released.organization_id, released.credit_tokens, this.database.now());
      return true;
    });
  }

  async releaseExpired(now: Date, batchSize: number): Promise<number> {
    const expired = await this.database.db
      .selectFrom('ai_reservation')
      .select('id')
      .where('expires_at', '<=', now)
      .orderBy('expires_at')
      .limit(batchSize)
      .execute();
    let released = 0;
    for (const { id } of expired) if (await this.release(id)) released += 1;
    return released;
  }

  async snapshot(organizationId: number, period: Period): Promise<CapacitySnapshot> {
    const usage = await this.database.db
      .selectFrom('ai_period_usage')
      .select(['allotment_tokens', 'overage_tokens'])
      .where('organization_id', '=', organizationId)
      .where('period_start', '=', period.start)
      .executeTakeFirst();
    const account = await this.database.db.selectFrom('ai_credit_account').select('balance').where('organization_id', '=', organizationId).executeTakeFirst();
    return {
      allotmentUsed: Number(usage?.allotment_tokens ?? 0),
      overageTokens: Number(usage?.overage_tokens ?? 0),
      creditBalance: Number(account?.balance ?? 0),
    };
  }

  /** Locks the organization; its capacity in the period, or null when it does not exist. */
  private async lock(organizationId: number, periodStart: Date): Promise<{ charged: number; held: number; balance: number } | null> {
    const [locked] = await this.database.select(LOCK_ORGANIZATION, [organizationId]);
    if (!locked) return null;
    const [row] = await this.database.select<LockedState>(LOCKED_STATE, [organizationId, periodStart]);
    return row ? { charged: Number(row.charged), held: Number(row.held), balance: Number(row.balance ?? 0) } : null;
  }

  private async addToBalance(organizationId: number, tokens: number, at: Date): Promise<void> {
    // Taking credits is an UPDATE: INSERT … ON CONFLICT checks the row it proposes (a negative
    // balance) against the non-negative check before it finds the conflict, and fails.
    if (tokens < 0) await this.database.run(TAKE_FROM_BALANCE, [organizationId, -tokens, at]);
    else await this.database.run(ADD_TO_BALANCE, [organizationId, tokens, at]);
  }
}
