import type { Selectable } from 'kysely';
import type { Reservation, ReservationRequest, SettledCall } from '../../core/ai/ai-capacity.port';
import type { Charge, ReservationPlan } from '../../core/ai/capacity-rules';
import type { UsageRecord } from '../../core/ai/usage-record';
import type { Tables } from './schema/tables';

/**
 * The AI tables' rows as domain values, for both adapter families: typed on the rows as the
 * driver reads them (times as text, int8 as text), which the in-memory rows (Dates, numbers) fit too.
 */
type ReservationRow = Selectable<Tables['ai_reservation']>;
type UsageRow = Selectable<Tables['llm_usage_log']>;

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

/** A new reservation's columns (all but its id), the same for both adapter families. */
export const reservationColumns = (request: ReservationRequest, plan: ReservationPlan) => ({
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
});

/** A settled call's usage-log columns but its id and user (who may be gone by now). */
export const usageColumns = (reservation: Reservation, call: SettledCall, charge: Charge) => ({
  organization_id: reservation.organizationId,
  feature: reservation.feature,
  model: reservation.model,
  input_tokens: call.inputTokens,
  output_tokens: call.outputTokens,
  allotment_tokens: charge.allotmentTokens,
  credit_tokens: charge.creditTokens,
  overage_tokens: charge.overageTokens,
  cost_usd: call.costUsd,
  period_start: reservation.periodStart,
  created_at: call.at,
});
