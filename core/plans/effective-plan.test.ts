import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { plansHarness } from '../../test/builders/plans';
import { FakeBillingProvider } from '../../test/fakes/fake-billing-provider';
import { recordingLogger } from '../../test/support/recording-logger';
import type { BillingEvent, SubscriptionChangedEvent } from '../billing/billing-provider.port';
import { HandleBillingWebhook } from '../billing/handle-billing-webhook.use-case';
import { SUBSCRIPTION_STATUSES } from '../billing/subscription';
import { COUNTING_STATUSES } from './effective-plan';
import { GetCurrentPlan } from './get-current-plan.use-case';
import { calendarMonth, subscriptionPeriod } from './usage-period';

const NOW = '2026-11-21T10:00:00.000Z';

async function setup() {
  const h = plansHarness();
  const organizationId = (await h.ports.organizations.create({ name: 'Acme' })).id;
  const pro = await h.plan('Professional');
  const premium = await h.plan('Premium');
  await h.plans.update(pro.id, { stripeProductId: 'prod_pro', updatedAt: h.clock.now() });
  await h.plans.update(premium.id, { stripeProductId: 'prod_premium', updatedAt: h.clock.now() });
  await h.subscriptions.saveCustomer(organizationId, 'cus_1', h.clock.now());
  const webhook = new HandleBillingWebhook({
    provider: new FakeBillingProvider(),
    subscriptions: h.subscriptions,
    organizations: h.ports.organizations,
    creditPacks: null,
    unitOfWork: h.store.unitOfWork,
    audit: h.ports.audit,
    clock: h.clock,
    logger: recordingLogger(),
  });
  const deliver = (event: BillingEvent) => webhook.execute(FakeBillingProvider.signed(event));
  return { h, organizationId, deliver };
}

const subscriptionEvent = (organizationId: number, overrides: Partial<SubscriptionChangedEvent>): SubscriptionChangedEvent => ({
  id: 'evt_1',
  kind: 'subscription-changed',
  occurredAt: new Date('2026-11-05T08:00:00.000Z'),
  organizationId,
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  status: 'active',
  priceId: 'price_pro',
  productId: 'prod_pro',
  currentPeriodStart: new Date('2026-11-05T08:00:00.000Z'),
  currentPeriodEnd: new Date('2026-12-05T08:00:00.000Z'),
  cancelAtPeriodEnd: false,
  ...overrides,
});

describe('effective plan', () => {
  it('is the default plan and the UTC calendar month without a subscription', async () => {
    const { h, organizationId } = await setup();
    const effective = await h.resolver.forOrganization(organizationId);
    expect(effective.plan.name).toBe('Free');
    expect(effective.subscribed).toBe(false);
    expect(effective.period).toEqual(calendarMonth(new Date(NOW)));
  });

  it.each(COUNTING_STATUSES)("is the subscribed product's plan, with the subscription period, while %s", async (status) => {
    const { h, organizationId, deliver } = await setup();
    await deliver(subscriptionEvent(organizationId, { status }));
    const effective = await h.resolver.forOrganization(organizationId);
    expect(effective.plan.name).toBe('Professional');
    expect(effective.period).toEqual({ start: new Date('2026-11-05T08:00:00.000Z'), end: new Date('2026-12-05T08:00:00.000Z') });
  });

  it.each(SUBSCRIPTION_STATUSES.filter((s) => !COUNTING_STATUSES.includes(s)))('falls back to the default plan when %s', async (status) => {
    const { h, organizationId, deliver } = await setup();
    await deliver(subscriptionEvent(organizationId, { status }));
    expect((await h.resolver.forOrganization(organizationId)).plan.name).toBe('Free');
  });

  it('uses the default plan for a product no plan is sold as, and follows the default when it moves', async () => {
    const { h, organizationId, deliver } = await setup();
    await deliver(subscriptionEvent(organizationId, { productId: 'prod_unlinked' }));
    expect((await h.resolver.forOrganization(organizationId)).plan.name).toBe('Free');
    await h.plans.setDefault((await h.plan('Premium')).id, h.clock.now());
    expect((await h.resolver.forOrganization(organizationId)).plan.name).toBe('Premium');
  });

  it('keeps a retired (inactive) plan for organizations subscribed to its product', async () => {
    const { h, organizationId, deliver } = await setup();
    await deliver(subscriptionEvent(organizationId, {}));
    await h.plans.update((await h.plan('Professional')).id, { isActive: false, updatedAt: h.clock.now() });
    expect((await h.resolver.forOrganization(organizationId)).plan.name).toBe('Professional');
  });

  it('moves to Professional on a subscription and back to Free on its cancellation', async () => {
    const { h, organizationId, deliver } = await setup();
    await deliver(subscriptionEvent(organizationId, { id: 'evt_a', cancelAtPeriodEnd: true }));
    const current = new GetCurrentPlan(h.plansDeps);
    const caller = { userId: 1, organizationId, role: 'member' as const, sessionId: 1, mfaSatisfied: true, kind: 'user' as const };
    expect(await current.execute(caller)).toMatchObject({
      plan: { name: 'Professional' },
      subscription: { status: 'active', currentPeriodEnd: new Date('2026-12-05T08:00:00.000Z'), cancelAtPeriodEnd: true },
    });
    await deliver(subscriptionEvent(organizationId, { id: 'evt_b', status: 'canceled', occurredAt: new Date('2026-11-20T00:00:00.000Z') }));
    expect(await current.execute(caller)).toMatchObject({ plan: { name: 'Free' }, subscription: { status: 'canceled' }, period: calendarMonth(new Date(NOW)) });
  });

  it('property: matches a model over random subscription histories delivered out of order, with redeliveries', async () => {
    const products = ['prod_pro', 'prod_premium', 'prod_unlinked'] as const;
    const planOf: Record<string, string> = { prod_pro: 'Professional', prod_premium: 'Premium' };
    const anEvent = fc.record({
      created: fc.integer({ min: 0, max: 20 }),
      status: fc.constantFrom(...SUBSCRIPTION_STATUSES),
      product: fc.constantFrom(...products),
      periodStartDay: fc.integer({ min: 1, max: 28 }),
      checkout: fc.boolean(),
      paid: fc.boolean(),
    });
    const history = fc
      .array(anEvent, { minLength: 1, maxLength: 10 })
      .chain((events) =>
        fc.tuple(
          fc.constant(events),
          // A delivery order: every event at least once, some twice, shuffled.
          fc.shuffledSubarray(events.map((_, i) => i)).chain((again) => fc.shuffledSubarray([...events.map((_, i) => i), ...again], { minLength: events.length + again.length })),
        ),
      );
    await fc.assert(
      fc.asyncProperty(history, async ([events, order]) => {
        const { h, organizationId, deliver } = await setup();
        const base = Date.parse('2026-11-01T00:00:00.000Z');
        const toEvent = (i: number): BillingEvent => {
          const e = events[i]!;
          const occurredAt = new Date(base + e.created * 1000);
          if (e.checkout) {
            return { id: `evt_${i}`, kind: 'checkout-completed', occurredAt, organizationId, customerId: 'cus_1', subscriptionId: 'sub_1', paid: e.paid };
          }
          const start = new Date(Date.UTC(2026, 10, e.periodStartDay, 8));
          return subscriptionEvent(organizationId, {
            id: `evt_${i}`,
            occurredAt,
            status: e.status,
            productId: e.product,
            currentPeriodStart: start,
            currentPeriodEnd: new Date(Date.UTC(2026, 11, e.periodStartDay, 8)),
          });
        };
        for (const i of order) await deliver(toEvent(i));

        // The model: the subscription event created last wins; among equal `created`, the one first delivered later.
        const firstDelivery = new Map<number, number>();
        order.forEach((i, position) => firstDelivery.has(i) || firstDelivery.set(i, position));
        const winner = [...firstDelivery.keys()]
          .filter((i) => !events[i]!.checkout)
          .sort((a, b) => events[a]!.created - events[b]!.created || firstDelivery.get(a)! - firstDelivery.get(b)!)
          .at(-1);
        const effective = await h.resolver.forOrganization(organizationId);
        const now = h.clock.now();
        const state = winner === undefined ? null : events[winner]!;
        const expectedPlan = state && COUNTING_STATUSES.includes(state.status) ? (planOf[state.product] ?? 'Free') : 'Free';
        expect(effective.plan.name).toBe(expectedPlan);
        if (expectedPlan !== 'Free') {
          const start = new Date(Date.UTC(2026, 10, state!.periodStartDay, 8));
          expect(effective.period).toEqual(subscriptionPeriod({ start, end: new Date(Date.UTC(2026, 11, state!.periodStartDay, 8)) }, now));
        } else {
          expect(effective.period).toEqual(calendarMonth(now));
        }
        const stored = await h.subscriptions.findByOrganization(organizationId);
        if (state) expect(stored?.status).toBe(state.status);
        else expect(stored?.status).toMatch(/^(active|incomplete)$/);
      }),
      { numRuns: 300 },
    );
  });
});
