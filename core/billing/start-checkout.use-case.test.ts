import { describe, expect, it } from 'vitest';
import { accountsHarness } from '../../test/builders/accounts';
import { FakeBillingProvider } from '../../test/fakes/fake-billing-provider';
import type { Caller } from '../accounts/caller';
import { serviceUnavailable } from '../shared/domain-error';
import { StartCheckout } from './start-checkout.use-case';

async function setup() {
  const h = accountsHarness();
  const provider = new FakeBillingProvider();
  const startCheckout = new StartCheckout({ ...h.ports, provider, settings: { baseWebUrl: 'https://app.example.com' } });
  const user = await h.aUser({ email: 'owner@example.com', role: 'readonly' });
  const caller: Caller = { userId: user.id, organizationId: user.organizationId, role: user.role, sessionId: 1, mfaSatisfied: true };
  return { h, provider, startCheckout, caller };
}

describe('StartCheckout', () => {
  it("asks the provider for a checkout of the caller's organization and returns its URL", async () => {
    const { provider, startCheckout, caller } = await setup();
    const { url } = await startCheckout.execute(caller, { priceId: 'price_basic' });
    expect(provider.checkouts).toEqual([
      {
        organizationId: caller.organizationId,
        priceId: 'price_basic',
        customerEmail: 'owner@example.com',
        successUrl: 'https://app.example.com/billing?checkout=success',
        cancelUrl: 'https://app.example.com/billing?checkout=cancelled',
        idempotencyKey: expect.stringMatching(/^checkout-[0-9a-f]{64}$/),
      },
    ]);
    expect(url).toBe(`https://pay.example.test/${caller.organizationId}/${provider.checkouts[0]!.idempotencyKey}`);
  });

  it('reuses the idempotency key for the same request within a minute, and only then', async () => {
    const { h, provider, startCheckout, caller } = await setup();
    h.clock.set('2026-11-21T10:00:05.000Z');
    await startCheckout.execute(caller, { priceId: 'price_basic' });
    h.clock.set('2026-11-21T10:00:55.000Z');
    await startCheckout.execute(caller, { priceId: 'price_basic' });
    await startCheckout.execute(caller, { priceId: 'price_pro' });
    await startCheckout.execute({ ...caller, organizationId: caller.organizationId + 1 }, { priceId: 'price_basic' });
    h.clock.set('2026-11-21T10:01:00.000Z');
    await startCheckout.execute(caller, { priceId: 'price_basic' });
    const [first, again, otherPrice, otherOrganization, nextMinute] = provider.checkouts.map((c) => c.idempotencyKey);
    expect(again).toBe(first);
    expect(new Set([first, otherPrice, otherOrganization, nextMinute]).size).toBe(4);
  });

  it("passes the provider's failure through", async () => {
    const { provider, startCheckout, caller } = await setup();
    provider.failNextCheckout(serviceUnavailable());
    await expect(startCheckout.execute(caller, { priceId: 'price_basic' })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('refuses a caller whose user no longer exists, without calling the provider', async () => {
    const { provider, startCheckout, caller } = await setup();
    await expect(startCheckout.execute({ ...caller, userId: 9999 }, { priceId: 'price_basic' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    expect(provider.checkouts).toEqual([]);
  });
});
