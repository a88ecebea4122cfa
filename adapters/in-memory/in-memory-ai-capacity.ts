import type { AiCapacity, CapacitySnapshot, Reservation, ReservationRequest, SettledCall } from '../../core/ai/ai-capacity.port';
import { allotmentFree, chargeUsage, planReservation, type Charge, type ReservationPlan } from '../../core/ai/capacity-rules';
import type { UsageRecord } from '../../core/ai/usage-record';
import type { Period } from '../../core/plans/usage-period';
import type { Row } from '../postgres/schema/tables';
import { toReservation, toUsageRecord } from '../postgres/ai-rows';
import { addToBalance, aiTables, periodKey, type AiTables } from './in-memory-ai-tables';
import type { InMemoryStore } from './in-memory-store';

type ReservationRow = Row<'ai_reservation'>;

/** A new reservation's columns (all but its id), the same for both adapter families. */
const reservationColumns = (request: ReservationRequest, plan: ReservationPlan) => ({
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
const usageColumns = (reservation: Reservation, call: SettledCall, charge: Charge) => ({
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

/**
 * The hard cap in the shared InMemoryStore: each method runs under the store's lock (what the
 * organization row's lock is in PostgreSQL) and applies core's rules to the same tables.
 */
export class InMemoryAiCapacity implements AiCapacity {
  private readonly tables: AiTables;

  constructor(private readonly store: InMemoryStore) {
    this.tables = aiTables(store);
  }

  reserve(request: ReservationRequest): Promise<Reservation | null> {
    return this.store.unitOfWork.transaction(async () => {
      if (!this.store.organizations.has(request.organizationId)) return null;
      const plan = planReservation(
        { allotmentLimit: request.allotmentLimit, allotmentCommitted: this.committed(request.organizationId, request.period.start), creditBalance: this.balance(request.organizationId) },
        request.inputEstimate,
        request.overageAllowed,
      );
      if (!plan) return null;
      if (plan.creditTokens > 0) addToBalance(this.tables, request.organizationId, -plan.creditTokens, request.createdAt);
      const row: ReservationRow = { id: this.store.nextId('ai_reservation'), ...structuredClone(reservationColumns(request, plan)) };
      this.tables.reservations.set(row.id, row);
      return toReservation(row);
    });
  }

  settle(reservation: Reservation, call: SettledCall): Promise<UsageRecord | null> {
    return this.store.unitOfWork.transaction(async () => {
      const { organizationId, periodStart } = reservation;
      if (!this.store.organizations.has(organizationId)) return null;
      const stillHeld = this.tables.reservations.get(reservation.id);
      this.tables.reservations.delete(reservation.id);
      const held = stillHeld ? toReservation(stillHeld) : { ...reservation, allotmentTokens: 0, creditTokens: 0 };
      const free = {
        // The reservation is deleted above, and chargeUsage adds what it held to what is free:
        // free is what is left after everything committed, this reservation included.
        allotment: allotmentFree({ allotmentLimit: reservation.allotmentLimit, allotmentCommitted: this.committed(organizationId, periodStart) + held.allotmentTokens }),
        credits: this.balance(organizationId),
      };
      const charge = chargeUsage(call.inputTokens + call.outputTokens, held, free);
      const balanceChange = held.creditTokens - charge.creditTokens;
      if (balanceChange !== 0) addToBalance(this.tables, organizationId, balanceChange, call.at);
      this.addToPeriod(organizationId, periodStart, charge, call.at);
      const row: Row<'llm_usage_log'> = {
        id: this.store.nextId('llm_usage_log'),
        ...structuredClone(usageColumns(reservation, call, charge)),
        user_id: this.store.users.has(reservation.userId) ? reservation.userId : null,
      };
      this.tables.usageLog.set(row.id, row);
      if (charge.creditTokens > 0) {
        const id = this.store.nextId('ai_credit_transaction');
        this.tables.creditTransactions.set(id, {
          id,
          organization_id: organizationId,
          kind: 'usage',
          tokens: -charge.creditTokens,
          checkout_session_id: null,
          pack_id: null,
          usage_id: row.id,
          created_at: new Date(call.at),
        });
      }
      if (charge.overageTokens > 0) {
        this.tables.overageReports.set(row.id, {
          usage_id: row.id,
          organization_id: organizationId,
          tokens: charge.overageTokens,
          occurred_at: new Date(call.at),
          status: 'pending',
          attempts: 0,
          next_attempt_at: new Date(call.at),
          last_error: null,
          sent_at: null,
          created_at: new Date(call.at),
        });
      }
      return toUsageRecord(row);
    });
  }

  release(reservationId: number): Promise<boolean> {
    return this.store.unitOfWork.transaction(async () => this.releaseNow(reservationId));
  }

  releaseExpired(now: Date, batchSize: number): Promise<number> {
    return this.store.unitOfWork.transaction(async () => {
      const expired = [...this.tables.reservations.values()]
        .filter((row) => new Date(row.expires_at).getTime() <= now.getTime())
        .sort((a, b) => new Date(a.expires_at).getTime() - new Date(b.expires_at).getTime())
        .slice(0, batchSize);
      return expired.filter((row) => this.releaseNow(row.id)).length;
    });
  }

  snapshot(organizationId: number, period: Period): Promise<CapacitySnapshot> {
    return this.store.unitOfWork.exclusive(() => {
      const usage = this.tables.periodUsage.get(periodKey(organizationId, period.start));
      return { allotmentUsed: usage?.allotment_tokens ?? 0, overageTokens: usage?.overage_tokens ?? 0, creditBalance: this.balance(organizationId) };
    });
  }

  private releaseNow(reservationId: number): boolean {
    const row = this.tables.reservations.get(reservationId);
    if (!row) return false;
    this.tables.reservations.delete(reservationId);
    if (row.credit_tokens > 0) addToBalance(this.tables, row.organization_id, row.credit_tokens, this.store.now());
    return true;
  }

  /** Charged to the allotment in the period plus what reservations of that period hold. */
  private committed(organizationId: number, periodStart: Date): number {
    const charged = this.tables.periodUsage.get(periodKey(organizationId, periodStart))?.allotment_tokens ?? 0;
    let held = 0;
    for (const row of this.tables.reservations.values()) {
      if (row.organization_id === organizationId && new Date(row.period_start).getTime() === periodStart.getTime()) held += row.allotment_tokens;
    }
    return charged + held;
  }

  private balance(organizationId: number): number {
    return this.tables.creditAccounts.get(organizationId)?.balance ?? 0;
  }

  private addToPeriod(organizationId: number, periodStart: Date, charge: { allotmentTokens: number; creditTokens: number; overageTokens: number }, at: Date): void {
    const key = periodKey(organizationId, periodStart);
    const row = this.tables.periodUsage.get(key);
    this.tables.periodUsage.set(key, {
      organization_id: organizationId,
      period_start: new Date(periodStart),
      allotment_tokens: (row?.allotment_tokens ?? 0) + charge.allotmentTokens,
      credit_tokens: (row?.credit_tokens ?? 0) + charge.creditTokens,
      overage_tokens: (row?.overage_tokens ?? 0) + charge.overageTokens,
      updated_at: new Date(at),
    });
  }
}
