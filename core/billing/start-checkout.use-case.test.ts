import { PlanProducts } from '../plans/plan-products';
import { describe, expect, it } from 'vitest';
import { plansHarness } from '../../test/builders/plans';
import { FakeBillingProvider } from '../../test/fakes/fake-billing-provider';
import { serviceUnavailable } from '../shared/domain-error';
import type { BillingDeps } from './billing-deps';
import { OpenBillingPortal } from './open-billing-portal.use-case';
import { StartCheckout } from './start-checkout.use-case';

async function setup() {
  const h = plansHarness();
  const provider = new FakeBillingProvider();
  const deps: Omit<BillingDeps, 'creditPacks' | 'unitOfWork' | 'logger' | 'packs' | 'ledger'> = {
    provider,
    subscriptions: h.subscriptions,
    products: new PlanProducts(h.plans),
    organizations: h.ports.organizations,
    tokenHasher: h.ports.tokenHasher,
    audit: h.ports.audit,
    clock: h.clock,
    settings: { baseWebUrl: 'https://app.example.com' },
  };
  // The fake sells price_X as prod_X: two plans on sale, one retired.
  for (const [name, productId] of [['Professional', 'prod_basic'], ['Premium', 'prod_pro']] as const) {
    await h.plans.update((await h.plan(name)).id, { stripeProductId: productId, updatedAt: h.clock.now() });
  }
  const startCheckout = new StartCheckout(deps);
  const openPortal = new OpenBillingPortal(deps);
  const caller = await h.aCaller('org_admin');
  return { h, provider, startCheckout, openPortal, caller };
}

describe('StartCheckout', () => {
  it("creates the organization's customer on first need and checks out as that customer", async () => {
    const { h, provider, startCheckout, caller } = await setup();
    const { url } = await startCheckout.execute(caller, { priceId: 'price_basic' });
    expect(provider.customers).toEqual([
      { organizationId: caller.organizationId, name: expect.any(String), idempotencyKey: `tenantkit-organization-${caller.organizationId}-customer` },
    ]);
    expect(provider.checkouts).toEqual([
      {
        organizationId: caller.organizationId,
        customerId: 'cus_fake_1',
        priceId: 'price_basic',
        successUrl: 'https://app.example.com/billing?checkout=success',
        cancelUrl: 'https://app.example.com/billing?checkout=cancelled',
        idempotencyKey: expect.stringMatching(/^checkout-[0-9a-f]{64}$/),
      },
    ]);
    expect(url).toBe(`https://pay.example.test/${caller.organizationId}/${provider.checkouts[0]!.idempotencyKey}`);
    expect(await h.subscriptions.findByOrganization(caller.organizationId)).toMatchObject({ customerId: 'cus_fake_1', status: null });
  });

  it('never creates a second customer: later calls reuse it, concurrent first calls converge on one', async () => {
    const { h, provider, startCheckout, caller } = await setup();
    await Promise.all(Array.from({ length: 5 }, () => startCheckout.execute(caller, { priceId: 'price_basic' })));
    await startCheckout.execute(caller, { priceId: 'price_pro' });
    expect(provider.customerCount).toBe(1);
    expect(new Set(provider.checkouts.map((c) => c.customerId))).toEqual(new Set(['cus_fake_1']));
    expect((await h.subscriptions.findByOrganization(caller.organizationId))?.customerId).toBe('cus_fake_1');
  });

  it('reuses the checkout idempotency key for the same request within a minute, and only then', async () => {
    const { h, provider, startCheckout, caller } = await setup();
    const other = await h.aCaller('org_admin');
    h.clock.set('2026-11-21T10:00:05.000Z');
    await startCheckout.execute(caller, { priceId: 'price_basic' });
    h.clock.set('2026-11-21T10:00:55.000Z');
    await startCheckout.execute(caller, { priceId: 'price_basic' });
    await startCheckout.execute(caller, { priceId: 'price_pro' });
    await startCheckout.execute(other, { priceId: 'price_basic' });
    h.clock.set('2026-11-21T10:01:00.000Z');
    await startCheckout.execute(caller, { priceId: 'price_basic' });
    const [first, again, otherPrice, otherOrganization, nextMinute] = provider.checkouts.map((c) => c.idempotencyKey);
    expect(again).toBe(first);
    expect(new Set([first, otherPrice, otherOrganization, nextMinute]).size).toBe(4);
  });

  it("passes the provider's failure through, and a failed customer creation stores nothing", async () => {
    const { h, provider, startCheckout, caller } = await setup();
    provider.failNext(serviceUnavailable());
    await expect(startCheckout.execute(caller, { priceId: 'price_basic' })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const createCustomer = provider.createCustomer.bind(provider);
    provider.createCustomer = async () => {
      throw serviceUnavailable();
    };
    await expect(startCheckout.execute(caller, { priceId: 'price_basic' })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await h.subscriptions.findByOrganization(caller.organizationId)).toBeNull();
    provider.createCustomer = createCustomer;
    await startCheckout.execute(caller, { priceId: 'price_basic' });
    provider.failNext(serviceUnavailable());
    await expect(startCheckout.execute(caller, { priceId: 'price_basic' })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it.each(['readonly', 'member'] as const)('refuses a %s without calling the provider', async (role) => {
    const { h, provider, startCheckout } = await setup();
    await expect(startCheckout.execute(await h.aCaller(role), { priceId: 'price_basic' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(provider.customers).toEqual([]);
    expect(provider.checkouts).toEqual([]);
  });

  it("accepts only an active price of an active plan's product, refusing anything else on priceId before a customer exists", async () => {
    const { h, provider, startCheckout, caller } = await setup();
    const premium = await h.plan('Premium');
    await h.plans.update(premium.id, { isActive: false, updatedAt: h.clock.now() });
    const refused = { code: 'VALIDATION_ERROR', details: { priceId: expect.any(String) } };
    // Unknown to the provider; a plan retired; a price the provider stopped selling.
    await expect(startCheckout.execute(caller, { priceId: 'price_unknown' })).rejects.toMatchObject(refused);
    await expect(startCheckout.execute(caller, { priceId: 'price_pro' })).rejects.toMatchObject(refused);
    provider.archivePrice('price_basic');
    await expect(startCheckout.execute(caller, { priceId: 'price_basic' })).rejects.toMatchObject(refused);
    expect(provider.customers).toEqual([]);
    expect(provider.checkouts).toEqual([]);
  });

  it("refuses a price whose product no plan is sold as", async () => {
    const { h, startCheckout, caller } = await setup();
    await h.plans.update((await h.plan('Premium')).id, { stripeProductId: 'prod_other', updatedAt: h.clock.now() });
    await expect(startCheckout.execute(caller, { priceId: 'price_pro' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });

  it.each(['active', 'trialing', 'past_due'] as const)('refuses a second subscription while one is %s: CONFLICT, plans change in the portal', async (status) => {
    const { h, provider, startCheckout, caller } = await setup();
    await startCheckout.execute(caller, { priceId: 'price_basic' });
    const customerId = (await h.subscriptions.findByOrganization(caller.organizationId))!.customerId!;
    const state = { customerId, subscriptionId: 'sub_1', status, priceId: 'price_basic', productId: 'prod_basic', currentPeriodStart: null, currentPeriodEnd: null, cancelAtPeriodEnd: false };
    await h.subscriptions.applyState(caller.organizationId, { ...state, eventAt: h.clock.now(), updatedAt: h.clock.now() });
    await expect(startCheckout.execute(caller, { priceId: 'price_pro' })).rejects.toMatchObject({ code: 'CONFLICT', details: { reason: 'subscription_exists' } });
    expect(provider.checkouts).toHaveLength(1);
    // Once it has ended, a new one may start.
    await h.subscriptions.applyState(caller.organizationId, { ...state, status: 'canceled', eventAt: new Date(h.clock.now().getTime() + 1000), updatedAt: h.clock.now() });
    await expect(startCheckout.execute(caller, { priceId: 'price_pro' })).resolves.toHaveProperty('url');
  });

  it('refuses a second subscription while a finished checkout holds a provisional active status', async () => {
    const { h, startCheckout, caller } = await setup();
    await startCheckout.execute(caller, { priceId: 'price_basic' });
    await h.subscriptions.linkCheckout(caller.organizationId, { customerId: null, subscriptionId: 'sub_1', provisionalStatus: 'active', updatedAt: h.clock.now() });
    await expect(startCheckout.execute(caller, { priceId: 'price_basic' })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it('refuses a caller whose organization no longer exists, without calling the provider', async () => {
    const { provider, startCheckout, caller } = await setup();
    await expect(startCheckout.execute({ ...caller, organizationId: 9999 }, { priceId: 'price_basic' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(provider.customers).toEqual([]);
  });
});

describe('OpenBillingPortal', () => {
  it("opens the portal for the organization's customer, returning to /billing", async () => {
    const { h, provider, openPortal } = await setup();
    const admin = await h.aCaller('org_admin');
    expect(await openPortal.execute(admin)).toEqual({ url: 'https://portal.example.test/cus_fake_1' });
    expect(provider.portals).toEqual([{ customerId: 'cus_fake_1', returnUrl: 'https://app.example.com/billing' }]);
    await openPortal.execute(admin);
    expect(provider.customerCount).toBe(1);
  });

  it.each(['readonly', 'member'] as const)('refuses a %s without calling the provider', async (role) => {
    const { h, provider, openPortal } = await setup();
    await expect(openPortal.execute(await h.aCaller(role))).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(provider.customers).toEqual([]);
    expect(provider.portals).toEqual([]);
  });
});
