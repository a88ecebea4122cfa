import { describe, expect, it } from 'vitest';
import { organizationsHarness } from '../../test/builders/organizations';
import type { SubscriptionStatus } from '../billing/subscription';
import { GetOrganizationSettings } from './get-organization-settings.use-case';
import { UpdateOrganizationSettings } from './update-organization-settings.use-case';

async function setup() {
  const h = organizationsHarness();
  const { subscriptions } = h;
  const update = new UpdateOrganizationSettings(h.orgDeps);
  const get = new GetOrganizationSettings(h.orgDeps);
  const { organizationId, users } = await h.anOrganization(['org_admin']);
  const admin = await h.loginAs(users[0]!);
  const subscribe = (status: SubscriptionStatus, second = 0) =>
    subscriptions.applyState(organizationId, {
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
      status,
      priceId: 'price_pro',
      productId: 'prod_pro',
      currentPeriodStart: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      eventAt: new Date(Date.UTC(2026, 10, 21, 10, 0, second)),
      updatedAt: h.clock.now(),
    });
  return { h, update, get, admin, subscribe };
}

describe('UpdateOrganizationSettings: overage', () => {
  it('refuses to switch overage on without a subscription to bill it on: CONFLICT, nothing changed', async () => {
    const { update, get, admin } = await setup();
    await expect(update.execute(admin, { overageEnabled: true })).rejects.toMatchObject({ code: 'CONFLICT', details: { reason: 'no_live_subscription' } });
    expect(await get.execute(admin)).toEqual({ overageEnabled: false, requireMfa: false });
  });

  it.each(['incomplete', 'unpaid', 'paused', 'canceled'] as const)('refuses it with a %s subscription', async (status) => {
    const { update, admin, subscribe } = await setup();
    await subscribe(status);
    await expect(update.execute(admin, { overageEnabled: true })).rejects.toMatchObject({ code: 'CONFLICT' });
  });

  it.each(['active', 'trialing', 'past_due'] as const)('allows it with a %s subscription, and switching it off always', async (status) => {
    const { update, admin, subscribe } = await setup();
    await subscribe(status);
    await expect(update.execute(admin, { overageEnabled: true })).resolves.toEqual({ overageEnabled: true, requireMfa: false });
    await subscribe('canceled', 5);
    await expect(update.execute(admin, { overageEnabled: false })).resolves.toEqual({ overageEnabled: false, requireMfa: false });
  });

  it('changes the other settings without a subscription', async () => {
    const { update, admin } = await setup();
    await expect(update.execute(admin, { requireMfa: true })).resolves.toEqual({ overageEnabled: false, requireMfa: true });
  });
});
