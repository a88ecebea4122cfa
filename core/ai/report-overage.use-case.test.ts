import { describe, expect, it } from 'vitest';
import { AI_MODEL, aiHarness, type AiHarness } from '../../test/builders/ai';
import { FakeBillingProvider } from '../../test/fakes/fake-billing-provider';
import type { UserCaller } from '../access/caller';
import type { DeliveryPolicy } from '../email/deliver-due-emails.use-case';
import { DomainError, serviceUnavailable } from '../shared/domain-error';
import { equalJitterBackoffMs } from '../shared/retry-backoff';
import { ReleaseExpiredReservations } from './release-expired-reservations.use-case';
import { ReportOverage } from './report-overage.use-case';

const POLICY: DeliveryPolicy = { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 60_000, leaseMs: 30_000, batchSize: 10 };

function setup() {
  const h = aiHarness();
  const provider = new FakeBillingProvider();
  const report = new ReportOverage({
    overageReports: h.overageReports,
    clock: h.clock,
    logger: h.logger,
    provider,
    subscriptions: h.subscriptions,
    organizations: h.ports.organizations,
    meterEventName: 'ai_tokens',
    random: () => 0.5,
    policy: POLICY,
  });
  return { h, provider, report };
}

/**
 * A settled call that charged `overage` tokens to overage, straight through the capacity port:
 * the organization needs no subscription (so no billing customer yet).
 */
async function overageUsage(h: AiHarness, caller: UserCaller, overage: number) {
  const now = h.clock.now();
  const reservation = await h.capacity.reserve({
    organizationId: caller.organizationId,
    userId: caller.userId,
    feature: 'improve',
    model: AI_MODEL,
    period: { start: new Date('2026-11-01T00:00:00.000Z'), end: new Date('2026-12-01T00:00:00.000Z') },
    allotmentLimit: 0,
    inputEstimate: 10,
    overageAllowed: true,
    createdAt: now,
    expiresAt: new Date(now.getTime() + 60_000),
  });
  const record = await h.capacity.settle(reservation!, { inputTokens: 10, outputTokens: overage - 10, costUsd: null, at: now });
  expect(record!.overageTokens).toBe(overage);
  return record!;
}

const reportRow = (h: AiHarness, usageId: number) => h.tables.overageReports.get(usageId)!;

describe('ReportOverage', () => {
  it("reports each usage's overage once as a meter event identified by the usage id, creating the customer on first need", async () => {
    const { h, provider, report } = setup();
    const caller = await h.aCaller('member');
    const first = await overageUsage(h, caller, 1_500);
    const second = await overageUsage(h, caller, 700);
    expect(await report.execute()).toEqual({ sent: 2, retried: 0, dead: 0 });
    // The two reports run concurrently: both may ask, the idempotency key makes it one customer.
    expect(provider.customerCount).toBe(1);
    expect(provider.customers[0]).toMatchObject({ organizationId: caller.organizationId });
    const customerId = (await h.subscriptions.findByOrganization(caller.organizationId))!.customerId;
    expect(provider.meterEvents).toEqual([
      { eventName: 'ai_tokens', customerId, value: 1_500, identifier: String(first.id), timestamp: first.createdAt },
      { eventName: 'ai_tokens', customerId, value: 700, identifier: String(second.id), timestamp: second.createdAt },
    ]);
    expect(reportRow(h, first.id)).toMatchObject({ status: 'sent', sent_at: h.clock.now(), attempts: 1 });
    // Sent reports are not claimed again.
    expect(await report.execute()).toEqual({ sent: 0, retried: 0, dead: 0 });
    expect(provider.meterEventCalls).toHaveLength(2);
  });

  it('retries a transient failure with backoff, then reports it', async () => {
    const { h, provider, report } = setup();
    const caller = await h.aCaller('member');
    await h.subscriptions.saveCustomer(caller.organizationId, 'cus_known', h.clock.now());
    const usage = await overageUsage(h, caller, 900);
    provider.failNext(serviceUnavailable('meter down'));
    expect(await report.execute()).toEqual({ sent: 0, retried: 1, dead: 0 });
    const delay = equalJitterBackoffMs(POLICY, 1, () => 0.5);
    expect(reportRow(h, usage.id)).toMatchObject({ status: 'pending', attempts: 1, last_error: 'meter down', next_attempt_at: new Date(h.clock.now().getTime() + delay) });
    h.clock.advance(delay - 1);
    expect(await report.execute()).toEqual({ sent: 0, retried: 0, dead: 0 });
    h.clock.advance(1);
    expect(await report.execute()).toEqual({ sent: 1, retried: 0, dead: 0 });
    expect(reportRow(h, usage.id)).toMatchObject({ status: 'sent', attempts: 2 });
    expect(provider.meterEvents).toEqual([expect.objectContaining({ identifier: String(usage.id), customerId: 'cus_known', value: 900 })]);
  });

  it('dead-letters a permanent failure at once, and logs it for an operator', async () => {
    const { h, provider, report } = setup();
    const caller = await h.aCaller('member');
    await h.subscriptions.saveCustomer(caller.organizationId, 'cus_known', h.clock.now());
    const usage = await overageUsage(h, caller, 900);
    provider.failNext(new DomainError('VALIDATION_ERROR', 'no such meter'));
    expect(await report.execute()).toEqual({ sent: 0, retried: 0, dead: 1 });
    expect(reportRow(h, usage.id)).toMatchObject({ status: 'dead', last_error: 'no such meter' });
    expect(h.logger.lines).toContainEqual(expect.objectContaining({ level: 'error', fields: expect.objectContaining({ usage_id: usage.id, tokens: 900 }) }));
    h.clock.advance(POLICY.maxDelayMs);
    expect(await report.execute()).toEqual({ sent: 0, retried: 0, dead: 0 });
  });

  it('dead-letters a report whose transient failures ran out of attempts', async () => {
    const { h, provider, report } = setup();
    const caller = await h.aCaller('member');
    await h.subscriptions.saveCustomer(caller.organizationId, 'cus_known', h.clock.now());
    const usage = await overageUsage(h, caller, 900);
    const outcomes = [];
    for (let attempt = 1; attempt <= POLICY.maxAttempts; attempt += 1) {
      provider.failNext(serviceUnavailable());
      outcomes.push(await report.execute());
      h.clock.advance(POLICY.maxDelayMs);
    }
    expect(outcomes).toEqual([
      { sent: 0, retried: 1, dead: 0 },
      { sent: 0, retried: 1, dead: 0 },
      { sent: 0, retried: 0, dead: 1 },
    ]);
    expect(reportRow(h, usage.id)).toMatchObject({ status: 'dead', attempts: POLICY.maxAttempts });
  });
});

describe('ReleaseExpiredReservations', () => {
  it('gives the held credits of reservations past their expiry back, charging and logging nothing', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller({ tokenLimit: 0 });
    await h.giveCredits(caller.organizationId, 5_000);
    const release = new ReleaseExpiredReservations(h.aiDeps);
    h.model.script({ ending: 'hang' });
    // A call whose process dies: never read, never closed.
    await h.copilot.execute(caller, h.input(await h.aNote(caller)));
    expect(await h.balance(caller.organizationId)).toBeLessThan(5_000);
    h.clock.advance(h.aiDeps.settings.reservationTtlMs - 1);
    expect(await release.execute()).toEqual({ released: 0 });
    h.clock.advance(1);
    expect(await release.execute()).toEqual({ released: 1 });
    expect(await h.balance(caller.organizationId)).toBe(5_000);
    expect(h.tables.reservations.size).toBe(0);
    expect(await h.usageLog.list(caller.organizationId, null, {})).toEqual([]);
    expect(h.logger.lines).toContainEqual(expect.objectContaining({ level: 'warn', fields: { released: 1 } }));
  });
});
