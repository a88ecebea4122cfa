import type { Selectable } from 'kysely';
import type { Reservation } from '../../core/ai/ai-capacity.port';
import type { UsageRecord } from '../../core/ai/usage-record';
import type { Tables } from './schema/tables';
import { parseTimestamp } from './timestamp';

/**
 * The AI tables' rows as domain values, for both adapter families: typed on the rows as the
 * driver reads them (times as text, int8 as text: the token counts and the ids of reservations and
 * usage records), which the in-memory rows (Dates, numbers) fit too. An int8 id is read as a
 * number: a serial stays far below 2^53.
 */
type ReservationRow = Selectable<Tables['ai_reservation']>;
type UsageRow = Selectable<Tables['llm_usage_log']>;

/** An int8 count as the driver hands it over (text), or a number in memory; beyond 2^53 it cannot be read exactly. */
export function count(value: string | number): number {
  const read = Number(value);
  if (!Number.isSafeInteger(read)) throw new Error(`A token count of ${value} cannot be read exactly`);
  return read;
}

export const toReservation = (row: ReservationRow): Reservation => ({
  id: Number(row.id),
  organizationId: row.organization_id,
  userId: row.user_id,
  feature: row.feature,
  model: row.model,
  periodStart: parseTimestamp(row.period_start),
  allotmentLimit: Number(row.allotment_limit),
  inputEstimate: count(row.input_estimate),
  allotmentTokens: count(row.allotment_tokens),
  creditTokens: count(row.credit_tokens),
  overageTokens: count(row.overage_tokens),
  maxOutputTokens: count(row.max_output_tokens),
  overageAllowed: row.overage_allowed,
  createdAt: parseTimestamp(row.created_at),
  expiresAt: parseTimestamp(row.expires_at),
});

export const toUsageRecord = (row: UsageRow): UsageRecord => ({
  id: Number(row.id),
  organizationId: row.organization_id,
  userId: row.user_id,
  feature: row.feature,
  model: row.model,
  inputTokens: count(row.input_tokens),
  outputTokens: count(row.output_tokens),
  allotmentTokens: count(row.allotment_tokens),
  creditTokens: count(row.credit_tokens),
  overageTokens: count(row.overage_tokens),
  costUsd: row.cost_usd === null ? null : Number(row.cost_usd),
  createdAt: parseTimestamp(row.created_at),
});
