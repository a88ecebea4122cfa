import type { Selectable } from 'kysely';
import type { AiCapacity, CapacitySnapshot, Reservation, ReservationRequest, SettledCall } from '../../core/ai/ai-capacity.port';
import { MAX_OUTPUT_TOKENS, MIN_OUTPUT_TOKENS } from '../../core/ai/capacity-rules';
import type { CopilotFeature, UsageRecord } from '../../core/ai/usage-record';
import type { Period } from '../../core/plans/usage-period';
import type { Database, PreparedSql } from './database';
import { count, toReservation } from './ai-rows';
import { epochMillis } from './timestamp';
import { RESERVATION_COLUMNS } from './schema/ai.routines';
import type { Tables } from './schema/tables';

// Each step is one call of its function (schema/ai.routines.ts): lock, read, decide and write in
// one statement, so the organization's lock is never held across a round trip.
// Reserving outside a copilot call's admission (tests, tools) is prepared too, so PostgreSQL plans the
// call once per connection, with the columns named (a prepared `select *` fails once a migration
// changes ai_reservation under a running app).
const RESERVE: PreparedSql = {
  name: 'ai_reserve_call',
  text: `select ${RESERVATION_COLUMNS.join(', ')} from ai_reserve($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
};
/** The usage record's columns, in `UsageRecord`'s order. */
const USAGE = ['id', 'organization_id', 'user_id', 'feature', 'model', 'input_tokens', 'output_tokens', 'allotment_tokens', 'credit_tokens', 'overage_tokens', 'cost_usd', epochMillis('created_at')];
type UsageTuple = [number, number, number | null, CopilotFeature, string, number, number, number, number, number, number | null, number];

// Settling ends every answered copilot call: prepared as well, its usage record as one JSON
// array in one text column, as the admission's row (postgres-copilot-admission.ts says why).
const SETTLE: PreparedSql = {
  name: 'ai_settle_call',
  text: `select json_build_array(${USAGE.join(', ')})::text as usage from ai_settle($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
};
const RELEASE = 'select * from ai_release($1, $2)';

/**
 * The hard cap on PostgreSQL. Reserving, settling and releasing are each one call of a PL/pgSQL
 * function that first locks the organization's row, so an organization's steps happen one after
 * another and each sees the others' effects; the functions apply core's rules
 * (`capacity-rules.ts`). Credits a call holds leave `ai_credit_account.balance` (never negative,
 * by a check) until settled or released.
 */
export class PostgresAiCapacity implements AiCapacity {
  constructor(private readonly database: Database) {}

  async reserve(request: ReservationRequest): Promise<Reservation | null> {
    const [row] = await this.database.select<Selectable<Tables['ai_reservation']>>(RESERVE, [
      request.organizationId,
      request.userId,
      request.feature,
      request.model,
      request.period.start,
      request.allotmentLimit,
      request.inputEstimate,
      request.overageAllowed,
      MIN_OUTPUT_TOKENS,
      MAX_OUTPUT_TOKENS,
      request.createdAt,
      request.expiresAt,
    ]);
    return row ? toReservation(row) : null;
  }

  // A settlement waits for a pooled connection beyond the pool's wait limit (selectPatiently): it
  // runs once the answer's text is sent, and one given up on a busy pool would leave a served
  // call uncharged and its reservation holding capacity until it expires.
  async settle(reservation: Reservation, call: SettledCall): Promise<UsageRecord | null> {
    const [row] = await this.database.selectPatiently<{ usage: string }>(SETTLE, [
      reservation.id,
      reservation.organizationId,
      reservation.userId,
      reservation.feature,
      reservation.model,
      reservation.periodStart,
      reservation.allotmentLimit,
      reservation.overageAllowed,
      call.inputTokens,
      call.outputTokens,
      call.costUsd,
      call.at,
    ]);
    if (!row) return null;
    const [id, organizationId, userId, feature, model, inputTokens, outputTokens, allotmentTokens, creditTokens, overageTokens, costUsd, createdAt] = JSON.parse(row.usage) as UsageTuple;
    return {
      id,
      organizationId,
      userId,
      feature,
      model,
      inputTokens: count(inputTokens),
      outputTokens: count(outputTokens),
      allotmentTokens: count(allotmentTokens),
      creditTokens: count(creditTokens),
      overageTokens: count(overageTokens),
      costUsd,
      createdAt: new Date(createdAt),
    };
  }

  async release(reservationId: number): Promise<boolean> {
    const rows = await this.database.select(RELEASE, [reservationId, this.database.now()]);
    return rows.length > 0;
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
    for (const { id } of expired) if (await this.release(Number(id))) released += 1;
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
}
