import type { Period } from '../plans/usage-period';
import type { CopilotFeature, UsageRecord } from './usage-record';

export interface ReservationRequest {
  organizationId: number;
  userId: number;
  feature: CopilotFeature;
  model: string;
  /** The usage period the allotment is counted in (the effective plan's). */
  period: Period;
  /** The plan's `token_limit`: the allotment per period, -1 unlimited. */
  allotmentLimit: number;
  /** Tokens the input is expected to cost (characters ÷ 4, rounded up). */
  inputEstimate: number;
  /** Both overage switches are on: use beyond capacity is allowed and billed as overage. */
  overageAllowed: boolean;
  createdAt: Date;
  /** When an unsettled reservation is presumed abandoned (its process died) and released. */
  expiresAt: Date;
}

/** Tokens held for one call, per bucket, and the output bound the call may use. */
export interface Reservation {
  id: number;
  organizationId: number;
  userId: number;
  feature: CopilotFeature;
  model: string;
  periodStart: Date;
  /** The plan's `token_limit` when reserved (-1 unlimited): settlement charges the same allotment. */
  allotmentLimit: number;
  inputEstimate: number;
  allotmentTokens: number;
  creditTokens: number;
  overageTokens: number;
  /** What the model is told it may write (`max_output_tokens`). */
  maxOutputTokens: number;
  overageAllowed: boolean;
  createdAt: Date;
  expiresAt: Date;
}

/** What a finished call used, as the provider reported it (or as estimated when it did not). */
export interface SettledCall {
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  at: Date;
}

/** The organization's AI capacity right now, for the usage summary. */
export interface CapacitySnapshot {
  /** Tokens charged to the allotment in the period (not counting calls in flight). */
  allotmentUsed: number;
  overageTokens: number;
  /** Credit tokens available, not counting what calls in flight hold. */
  creditBalance: number;
}

/**
 * The hard cap on AI spend. Each organization's capacity is its allotment left in the period plus
 * its credit balance; every method below reads and changes it atomically per organization (in
 * PostgreSQL under the organization row's lock), so concurrent calls can never together hold or
 * spend more than it. The rules themselves (what to hold, how to charge) are pure functions in
 * `capacity-rules.ts`; adapters apply them to the state they read under the lock.
 */
export interface AiCapacity {
  /**
   * Holds `inputEstimate` plus an output bound for one call, following `planReservation`; credits
   * held leave the balance until settled or released. Null, and nothing held, when the call does
   * not fit.
   */
  reserve(request: ReservationRequest): Promise<Reservation | null>;
  /**
   * Replaces the reservation with what the call used, charged by `chargeUsage` (allotment, then
   * credits, then overage when the reservation allowed it), returns the rest to the balance, and
   * writes the call's one usage record, with an overage report for the billing provider when
   * overage was charged: all in one transaction. If the reservation was already released (it
   * expired), only what is free at that moment is charged. Null when the organization no longer
   * exists (nothing is left to charge or log).
   */
  settle(reservation: Reservation, call: SettledCall): Promise<UsageRecord | null>;
  /** Gives everything held back, charges nothing, logs nothing. False when it was no longer held. */
  release(reservationId: number): Promise<boolean>;
  /** Releases up to `batchSize` reservations whose `expiresAt` ≤ `now`; returns how many. */
  releaseExpired(now: Date, batchSize: number): Promise<number>;
  /** The allotment used and overage in `period`, and the credit balance. */
  snapshot(organizationId: number, period: Period): Promise<CapacitySnapshot>;
}
