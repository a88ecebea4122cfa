import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AiCapacity, Reservation, ReservationRequest } from '../../core/ai/ai-capacity.port';
import type { CreditLedger } from '../../core/billing/credit-ledger.port';
import type { OverageReportStatus, OverageReportStore } from '../../core/ai/overage-report.port';
import type { UsageLog } from '../../core/ai/usage-log.port';
import type { Period } from '../../core/plans/usage-period';

/** An overage report as stored, for assertions on its delivery state. */
export interface StoredOverageReport {
  status: OverageReportStatus;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  sentAt: Date | null;
}

/** The four AI stores over one store, plus tenants and the raw reads the suite asserts on. */
export interface AiStoresHarness {
  capacity: AiCapacity;
  ledger: CreditLedger;
  usageLog: UsageLog;
  overageReports: OverageReportStore;
  newTenant(): Promise<{ organizationId: number; userId: number }>;
  newUser(organizationId: number): Promise<number>;
  deleteOrganization(organizationId: number): Promise<void>;
  deleteUser(userId: number): Promise<void>;
  reservationCount(organizationId: number): Promise<number>;
  overageReport(usageId: number): Promise<StoredOverageReport | null>;
  /** Rows of the organization in each AI table (reservations, period usage, credit account and transactions, usage log, overage reports). */
  aiRowCount(organizationId: number): Promise<number>;
  /** Empties the overage report queue: claims are global, so each overage test starts from none. */
  clearOverageReports(): Promise<void>;
  close(): Promise<void>;
}

// Far from the wall clock: a stamp equal to one of these came from the value passed in.
const T0 = Date.parse('2031-01-10T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000);
const PERIOD: Period = { start: new Date('2031-01-01T00:00:00.000Z'), end: new Date('2031-02-01T00:00:00.000Z') };
const TTL_MINUTES = 10;

/**
 * The AiCapacity, CreditLedger, UsageLog and OverageReportStore contract, run against every
 * adapter family. Each test works in organizations it creates, so tests share one store.
 */
export function aiCapacityContract(name: string, open: () => Promise<AiStoresHarness>): void {
  describe(`AI capacity, ledger, usage log and overage reports contract: ${name}`, () => {
    let h: AiStoresHarness;
    let purchases = 0;

    beforeAll(async () => {
      h = await open();
    });
    afterAll(async () => h?.close());

    const request = (tenant: { organizationId: number; userId: number }, overrides: Partial<ReservationRequest> = {}): ReservationRequest => ({
      organizationId: tenant.organizationId,
      userId: tenant.userId,
      feature: 'improve',
      model: 'gpt-test',
      period: PERIOD,
      allotmentLimit: 10_000,
      inputEstimate: 100,
      overageAllowed: false,
      createdAt: at(0),
      expiresAt: at(TTL_MINUTES),
      ...overrides,
    });
    const buy = async (organizationId: number, tokens: number) => {
      purchases += 1;
      expect(await h.ledger.credit({ organizationId, checkoutSessionId: `cs_contract_${purchases}_${organizationId}`, packId: 'pack_5m', tokens, at: at(0) })).toBe(true);
    };
    const snapshot = (organizationId: number) => h.capacity.snapshot(organizationId, PERIOD);
    const reserved = async (r: ReservationRequest): Promise<Reservation> => {
      const reservation = await h.capacity.reserve(r);
      expect(reservation).not.toBeNull();
      return reservation!;
    };
    const used = (inputTokens: number, outputTokens: number, minutes = 1) => ({ inputTokens, outputTokens, costUsd: 0.25, at: at(minutes) });

    describe('reserve', () => {
      it('holds the input estimate plus the output bound, and returns the reservation with the values passed in', async () => {
        const tenant = await h.newTenant();
        const reservation = await h.capacity.reserve(request(tenant, { allotmentLimit: 1_000, inputEstimate: 300 }));
        expect(reservation).toEqual({
          id: expect.any(Number),
          organizationId: tenant.organizationId,
          userId: tenant.userId,
          feature: 'improve',
          model: 'gpt-test',
          periodStart: PERIOD.start,
          allotmentLimit: 1_000,
          inputEstimate: 300,
          allotmentTokens: 1_000,
          creditTokens: 0,
          overageTokens: 0,
          maxOutputTokens: 700,
          overageAllowed: false,
          createdAt: at(0),
          expiresAt: at(TTL_MINUTES),
        });
        expect(await h.reservationCount(tenant.organizationId)).toBe(1);
        // What is held counts against the next call, though nothing is charged yet.
        expect(await h.capacity.reserve(request(tenant, { allotmentLimit: 1_000, inputEstimate: 1 }))).toBeNull();
        expect(await snapshot(tenant.organizationId)).toEqual({ allotmentUsed: 0, overageTokens: 0, creditBalance: 0 });
      });

      it('refuses (null, nothing held) a call whose input + 200 does not fit, and an organization that does not exist', async () => {
        const tenant = await h.newTenant();
        await buy(tenant.organizationId, 99);
        expect(await h.capacity.reserve(request(tenant, { allotmentLimit: 200, inputEstimate: 100 }))).toBeNull();
        expect(await h.reservationCount(tenant.organizationId)).toBe(0);
        expect((await snapshot(tenant.organizationId)).creditBalance).toBe(99);
        expect(await h.capacity.reserve(request(tenant, { allotmentLimit: 201, inputEstimate: 100 }))).toMatchObject({ allotmentTokens: 201, creditTokens: 99, maxOutputTokens: 200 });
        expect(await h.capacity.reserve(request({ organizationId: 2_000_000_000, userId: tenant.userId }))).toBeNull();
      });

      it('takes held credits out of the balance; release gives them back, once', async () => {
        const tenant = await h.newTenant();
        await buy(tenant.organizationId, 5_000);
        const reservation = await reserved(request(tenant, { allotmentLimit: 0 }));
        expect(reservation).toMatchObject({ allotmentTokens: 0, creditTokens: 2_100 });
        expect((await snapshot(tenant.organizationId)).creditBalance).toBe(2_900);
        expect(await h.capacity.release(reservation.id)).toBe(true);
        expect(await h.capacity.release(reservation.id)).toBe(false);
        expect(await snapshot(tenant.organizationId)).toEqual({ allotmentUsed: 0, overageTokens: 0, creditBalance: 5_000 });
        expect(await h.reservationCount(tenant.organizationId)).toBe(0);
      });

      it('with overage allowed, holds the 2000 bound and what capacity cannot cover as overage', async () => {
        const tenant = await h.newTenant();
        expect(await h.capacity.reserve(request(tenant, { allotmentLimit: 500, overageAllowed: true }))).toMatchObject({
          allotmentTokens: 500,
          creditTokens: 0,
          overageTokens: 1_600,
          maxOutputTokens: 2_000,
          overageAllowed: true,
        });
      });

      it('counts an unlimited allotment (-1) as always room', async () => {
        const tenant = await h.newTenant();
        for (let i = 0; i < 3; i += 1) {
          expect(await h.capacity.reserve(request(tenant, { allotmentLimit: -1, inputEstimate: 1_000_000 }))).toMatchObject({ allotmentTokens: 1_002_000, maxOutputTokens: 2_000 });
        }
      });

      it('never lets concurrent reservations hold more of the allotment than the limit', async () => {
        const tenant = await h.newTenant();
        const results = await Promise.all(Array.from({ length: 16 }, () => h.capacity.reserve(request(tenant, { allotmentLimit: 5_000 }))));
        const held = results.filter((r): r is Reservation => r !== null);
        expect(held.map((r) => r.allotmentTokens).sort((a, b) => b - a)).toEqual([2_100, 2_100, 800]);
      });

      it('never lets concurrent reservations hold more than the capacity, nor the balance go negative', async () => {
        const tenant = await h.newTenant();
        await buy(tenant.organizationId, 3_000);
        const results = await Promise.all(Array.from({ length: 16 }, () => h.capacity.reserve(request(tenant, { allotmentLimit: 5_000 }))));
        const held = results.filter((r): r is Reservation => r !== null);
        // 8000 of capacity: three calls of 2100, a fourth of what is left (1700), then none.
        expect(held.map((r) => r.allotmentTokens + r.creditTokens).sort((a, b) => b - a)).toEqual([2_100, 2_100, 2_100, 1_700]);
        expect(held.reduce((sum, r) => sum + r.allotmentTokens, 0)).toBe(5_000);
        expect(held.reduce((sum, r) => sum + r.creditTokens, 0)).toBe(3_000);
        expect((await snapshot(tenant.organizationId)).creditBalance).toBe(0);
      });
    });

    describe('settle', () => {
      it('replaces the reservation with the usage, allotment first, gives the rest back and writes one record', async () => {
        const tenant = await h.newTenant();
        await buy(tenant.organizationId, 5_000);
        const reservation = await reserved(request(tenant, { allotmentLimit: 1_000 }));
        expect(reservation).toMatchObject({ allotmentTokens: 1_000, creditTokens: 1_100 });
        const record = await h.capacity.settle(reservation, used(400, 900, 3));
        expect(record).toEqual({
          id: expect.any(Number),
          organizationId: tenant.organizationId,
          userId: tenant.userId,
          feature: 'improve',
          model: 'gpt-test',
          inputTokens: 400,
          outputTokens: 900,
          allotmentTokens: 1_000,
          creditTokens: 300,
          overageTokens: 0,
          costUsd: 0.25,
          createdAt: at(3),
        });
        expect(await snapshot(tenant.organizationId)).toEqual({ allotmentUsed: 1_000, overageTokens: 0, creditBalance: 4_700 });
        expect(await h.reservationCount(tenant.organizationId)).toBe(0);
        expect(await h.usageLog.list(tenant.organizationId, null, {})).toEqual([record]);
      });

      it('charges usage beyond the reservation only to what is free, leaving what other calls hold to them', async () => {
        const tenant = await h.newTenant();
        const first = await reserved(request(tenant, { allotmentLimit: 10_000 }));
        const second = await reserved(request(tenant, { allotmentLimit: 10_000 }));
        expect(await h.capacity.settle(first, used(100, 50_000))).toMatchObject({ allotmentTokens: 10_000 - second.allotmentTokens, creditTokens: 0, overageTokens: 0 });
        expect(await h.capacity.settle(second, used(100, 2_000))).toMatchObject({ allotmentTokens: 2_100 });
        expect((await snapshot(tenant.organizationId)).allotmentUsed).toBe(10_000);
      });

      it('charges a one-call excess to the allotment at most once: never more than the limit', async () => {
        const tenant = await h.newTenant();
        await buy(tenant.organizationId, 1_000);
        const reservation = await reserved(request(tenant, { allotmentLimit: 800, inputEstimate: 100 }));
        expect(await h.capacity.settle(reservation, used(100, 90_000))).toMatchObject({ allotmentTokens: 800, creditTokens: 1_000, overageTokens: 0 });
        expect(await snapshot(tenant.organizationId)).toEqual({ allotmentUsed: 800, overageTokens: 0, creditBalance: 0 });
      });

      it('charges the excess to overage and queues its report when the reservation allowed overage', async () => {
        await h.clearOverageReports();
        const tenant = await h.newTenant();
        const reservation = await reserved(request(tenant, { allotmentLimit: 1_000, overageAllowed: true }));
        const record = await h.capacity.settle(reservation, used(100, 4_000, 2));
        expect(record).toMatchObject({ allotmentTokens: 1_000, creditTokens: 0, overageTokens: 3_100 });
        expect(await snapshot(tenant.organizationId)).toEqual({ allotmentUsed: 1_000, overageTokens: 3_100, creditBalance: 0 });
        expect(await h.overageReport(record!.id)).toEqual({ status: 'pending', attempts: 0, nextAttemptAt: at(2), lastError: null, sentAt: null });
      });

      it('queues no overage report for a call within capacity', async () => {
        const tenant = await h.newTenant();
        const reservation = await reserved(request(tenant, { overageAllowed: true }));
        const record = await h.capacity.settle(reservation, used(100, 100));
        expect(record!.overageTokens).toBe(0);
        expect(await h.overageReport(record!.id)).toBeNull();
      });

      it('settles an expired (released) reservation by charging only what is free at that moment', async () => {
        const tenant = await h.newTenant();
        await buy(tenant.organizationId, 500);
        const late = await reserved(request(tenant, { allotmentLimit: 3_000 }));
        // Earlier tests' reservations expire at the same time: a batch big enough for all of them.
        expect(await h.capacity.releaseExpired(at(TTL_MINUTES), 10_000)).toBeGreaterThanOrEqual(1);
        expect(await h.reservationCount(tenant.organizationId)).toBe(0);
        const other = await reserved(request(tenant, { allotmentLimit: 3_000, createdAt: at(11), expiresAt: at(11 + TTL_MINUTES) }));
        expect(other).toMatchObject({ allotmentTokens: 2_100, creditTokens: 0 });
        // 900 of the allotment and the 500 credits are free; the rest is held by the other call.
        expect(await h.capacity.settle(late, used(100, 5_000, 12))).toMatchObject({ allotmentTokens: 900, creditTokens: 500, overageTokens: 0 });
        expect(await snapshot(tenant.organizationId)).toEqual({ allotmentUsed: 900, overageTokens: 0, creditBalance: 0 });
        expect(await h.reservationCount(tenant.organizationId)).toBe(1);
      });

      it('answers null (nothing charged or logged) once the organization is gone', async () => {
        const tenant = await h.newTenant();
        const reservation = await reserved(request(tenant));
        await h.deleteOrganization(tenant.organizationId);
        expect(await h.capacity.settle(reservation, used(10, 10))).toBeNull();
        expect(await h.aiRowCount(tenant.organizationId)).toBe(0);
      });

      it('logs the call to nobody when its user was deleted mid-call', async () => {
        const tenant = await h.newTenant();
        const reservation = await reserved(request(tenant));
        await h.deleteUser(tenant.userId);
        expect(await h.capacity.settle(reservation, used(10, 10))).toMatchObject({ userId: null, organizationId: tenant.organizationId });
      });
    });

    describe('releaseExpired', () => {
      it('releases up to the batch size of reservations expired by now (expiresAt ≤ now), charging and logging nothing', async () => {
        // Earlier tests' reservations all expire long before `base`: release them first.
        const base = 100_000;
        await h.capacity.releaseExpired(at(base - 1), 10_000);
        const tenant = await h.newTenant();
        await buy(tenant.organizationId, 100_000);
        for (let i = 0; i < 3; i += 1) await reserved(request(tenant, { allotmentLimit: 0, createdAt: at(base), expiresAt: at(base + i) }));
        await reserved(request(tenant, { allotmentLimit: 0, createdAt: at(base), expiresAt: at(base + 50) }));
        expect((await snapshot(tenant.organizationId)).creditBalance).toBe(100_000 - 4 * 2_100);
        expect(await h.capacity.releaseExpired(at(base + 2), 2)).toBe(2);
        expect(await h.capacity.releaseExpired(at(base + 2), 2)).toBe(1);
        expect(await h.capacity.releaseExpired(at(base + 2), 2)).toBe(0);
        expect(await h.reservationCount(tenant.organizationId)).toBe(1);
        expect(await snapshot(tenant.organizationId)).toEqual({ allotmentUsed: 0, overageTokens: 0, creditBalance: 100_000 - 2_100 });
        expect(await h.usageLog.list(tenant.organizationId, null, {})).toEqual([]);
      });
    });

    describe('CreditLedger', () => {
      it('credits a checkout session once, and knows whose it is', async () => {
        const tenant = await h.newTenant();
        const purchase = { organizationId: tenant.organizationId, checkoutSessionId: `cs_once_${tenant.organizationId}`, packId: 'pack_5m', tokens: 5_000, at: at(0) };
        expect(await h.ledger.credit(purchase)).toBe(true);
        expect(await h.ledger.credit(purchase)).toBe(false);
        expect(await h.ledger.credit({ ...purchase, tokens: 9_999 })).toBe(false);
        expect((await snapshot(tenant.organizationId)).creditBalance).toBe(5_000);
        expect(await h.ledger.findPurchase(purchase.checkoutSessionId)).toEqual({ organizationId: tenant.organizationId });
        expect(await h.ledger.findPurchase('cs_never')).toBeNull();
      });

      it('credits exactly once when two fulfilments of one session race', async () => {
        const tenant = await h.newTenant();
        const purchase = { organizationId: tenant.organizationId, checkoutSessionId: `cs_race_${tenant.organizationId}`, packId: 'pack_5m', tokens: 5_000, at: at(0) };
        const results = await Promise.all([h.ledger.credit(purchase), h.ledger.credit(purchase), h.ledger.credit(purchase)]);
        expect(results.filter(Boolean)).toHaveLength(1);
        expect((await snapshot(tenant.organizationId)).creditBalance).toBe(5_000);
      });

      it('credits nothing to an organization that does not exist', async () => {
        expect(await h.ledger.credit({ organizationId: 2_000_000_000, checkoutSessionId: 'cs_ghost', packId: 'pack_5m', tokens: 1, at: at(0) })).toBe(false);
      });
    });

    describe('UsageLog', () => {
      async function settledAt(tenant: { organizationId: number; userId: number }, minutes: number, tokens: number) {
        const reservation = await reserved(request(tenant, { allotmentLimit: -1 }));
        return (await h.capacity.settle(reservation, used(tokens, 0, minutes)))!;
      }

      it('lists newest first (createdAt, then id), pages after a position, and filters by user', async () => {
        const tenant = await h.newTenant();
        const bob = { organizationId: tenant.organizationId, userId: await h.newUser(tenant.organizationId) };
        const a = await settledAt(tenant, 1, 10);
        const b = await settledAt(bob, 3, 10);
        const c = await settledAt(tenant, 2, 10);
        const d = await settledAt(bob, 2, 10);
        const ids = (records: { id: number }[]) => records.map((r) => r.id);
        expect(ids(await h.usageLog.list(tenant.organizationId, null, {}))).toEqual([b.id, d.id, c.id, a.id]);
        expect(ids(await h.usageLog.list(tenant.organizationId, null, { limit: 2 }))).toEqual([b.id, d.id]);
        expect(ids(await h.usageLog.list(tenant.organizationId, null, { after: { createdAt: d.createdAt, id: d.id }, limit: 2 }))).toEqual([c.id, a.id]);
        expect(ids(await h.usageLog.list(tenant.organizationId, bob.userId, {}))).toEqual([b.id, d.id]);
        expect(ids(await h.usageLog.list(tenant.organizationId, tenant.userId, { after: { createdAt: c.createdAt, id: c.id } }))).toEqual([a.id]);
        expect(await h.usageLog.list((await h.newTenant()).organizationId, null, {})).toEqual([]);
      });

      it("sums a user's tokens within the period only", async () => {
        const tenant = await h.newTenant();
        await settledAt(tenant, 1, 100);
        await settledAt(tenant, 2, 50);
        const reservation = await reserved(request(tenant, { allotmentLimit: -1 }));
        await h.capacity.settle(reservation, { inputTokens: 1_000, outputTokens: 0, costUsd: null, at: PERIOD.end });
        expect(await h.usageLog.userTokens(tenant.organizationId, tenant.userId, PERIOD)).toBe(150);
        expect(await h.usageLog.userTokens(tenant.organizationId, tenant.userId, { start: PERIOD.end, end: new Date(PERIOD.end.getTime() + 1) })).toBe(1_000);
      });

      it('ranks users by tokens in the period (ties: lower id first), at most limit, without deleted users', async () => {
        const tenant = await h.newTenant();
        const users = [tenant.userId];
        for (let i = 0; i < 3; i += 1) users.push(await h.newUser(tenant.organizationId));
        const [u1, u2, u3, u4] = users.map((userId) => ({ organizationId: tenant.organizationId, userId }));
        await settledAt(u1!, 1, 10);
        await settledAt(u2!, 1, 30);
        await settledAt(u3!, 1, 20);
        await settledAt(u3!, 2, 10);
        await settledAt(u4!, 1, 5);
        const top = await h.usageLog.topUsers(tenant.organizationId, PERIOD, 3);
        expect(top.map((t) => [t.userId, t.tokens])).toEqual([
          [u2!.userId, 30],
          [u3!.userId, 30],
          [u1!.userId, 10],
        ]);
        expect(top[0]!.email).toEqual(expect.stringContaining('@'));
        await h.deleteUser(u2!.userId);
        expect((await h.usageLog.topUsers(tenant.organizationId, PERIOD, 10)).map((t) => t.userId)).toEqual([u3!.userId, u1!.userId, u4!.userId]);
      });
    });

    describe('OverageReportStore', () => {
      async function overageAt(minutes: number, tokens: number) {
        const tenant = await h.newTenant();
        const reservation = await reserved(request(tenant, { allotmentLimit: 0, overageAllowed: true, createdAt: at(minutes) }));
        return (await h.capacity.settle(reservation, used(100, tokens - 100, minutes)))!;
      }

      it('claims due reports oldest first, up to the limit, leasing them until leaseUntil', async () => {
        await h.clearOverageReports();
        const later = await overageAt(2, 700);
        const first = await overageAt(1, 500);
        await overageAt(60, 900);
        const claimed = await h.overageReports.claimDue(at(5), at(6), 10);
        expect(claimed).toEqual([
          { usageId: first.id, organizationId: first.organizationId, tokens: 500, occurredAt: at(1), attempts: 1 },
          { usageId: later.id, organizationId: later.organizationId, tokens: 700, occurredAt: at(2), attempts: 1 },
        ]);
        expect(await h.overageReport(first.id)).toMatchObject({ status: 'sending', attempts: 1, nextAttemptAt: at(6) });
        // Leased: invisible until the lease ends, then claimable again (its sender died).
        expect(await h.overageReports.claimDue(at(5), at(6), 10)).toEqual([]);
        // Both leases end at once: the tie goes to the lower usage id.
        expect((await h.overageReports.claimDue(at(6), at(7), 1)).map((r) => [r.usageId, r.attempts])).toEqual([[later.id, 2]]);
      });

      it('moves a claimed report to sent, retry (pending, due later) or dead, and only a sending one to retry or dead', async () => {
        await h.clearOverageReports();
        const toSend = await overageAt(1, 300);
        const toRetry = await overageAt(2, 300);
        const toKill = await overageAt(3, 300);
        await h.overageReports.claimDue(at(4), at(5), 10);
        await h.overageReports.markSent(toSend.id, at(4));
        await h.overageReports.scheduleRetry(toRetry.id, at(30), 'meter down');
        await h.overageReports.markDead(toKill.id, 'x'.repeat(5_000));
        expect(await h.overageReport(toSend.id)).toEqual({ status: 'sent', attempts: 1, nextAttemptAt: at(5), lastError: null, sentAt: at(4) });
        expect(await h.overageReport(toRetry.id)).toMatchObject({ status: 'pending', attempts: 1, nextAttemptAt: at(30), lastError: 'meter down' });
        expect(await h.overageReport(toKill.id)).toMatchObject({ status: 'dead', attempts: 1, lastError: 'x'.repeat(2_000) });
        // A worker whose lease ran out must not reopen what another worker finished.
        await h.overageReports.scheduleRetry(toSend.id, at(40), 'late');
        await h.overageReports.markDead(toSend.id, 'late');
        await h.overageReports.markDead(toRetry.id, 'late');
        expect(await h.overageReport(toSend.id)).toMatchObject({ status: 'sent' });
        expect(await h.overageReport(toRetry.id)).toMatchObject({ status: 'pending' });
        expect(await h.overageReports.claimDue(at(29), at(100), 10)).toEqual([]);
        expect((await h.overageReports.claimDue(at(30), at(100), 10)).map((r) => [r.usageId, r.attempts])).toEqual([[toRetry.id, 2]]);
      });

      it('never hands one report to two concurrent claimers', async () => {
        await h.clearOverageReports();
        for (let i = 0; i < 6; i += 1) await overageAt(i, 300);
        const claims = await Promise.all([0, 1, 2].map(() => h.overageReports.claimDue(at(10), at(20), 10)));
        const ids = claims.flat().map((r) => r.usageId);
        expect(ids).toHaveLength(6);
        expect(new Set(ids).size).toBe(6);
      });
    });

    describe('cascades', () => {
      it("deleting an organization deletes all of its AI rows; another organization's stay", async () => {
        await h.clearOverageReports();
        const doomed = await h.newTenant();
        const kept = await h.newTenant();
        for (const tenant of [doomed, kept]) {
          await buy(tenant.organizationId, 10_000);
          const overage = await reserved(request(tenant, { allotmentLimit: 0, overageAllowed: true }));
          await h.capacity.settle(overage, used(100, 20_000));
          await reserved(request(tenant));
        }
        const before = await h.aiRowCount(kept.organizationId);
        expect(await h.aiRowCount(doomed.organizationId)).toBe(before);
        await h.deleteOrganization(doomed.organizationId);
        expect(await h.aiRowCount(doomed.organizationId)).toBe(0);
        expect(await h.aiRowCount(kept.organizationId)).toBe(before);
      });

      it("deleting a user keeps the organization's usage rows, belonging to nobody", async () => {
        const tenant = await h.newTenant();
        const reservation = await reserved(request(tenant));
        const record = await h.capacity.settle(reservation, used(10, 10));
        await h.deleteUser(tenant.userId);
        expect(await h.usageLog.list(tenant.organizationId, null, {})).toEqual([{ ...record, userId: null }]);
      });
    });
  });
}
