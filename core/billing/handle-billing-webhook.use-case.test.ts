import { InMemorySubscriptionRepository } from '../../test/builders/adapters';
import { describe, expect, it } from 'vitest';
import { accountsHarness } from '../../test/builders/accounts';
import { FakeBillingProvider } from '../../test/fakes/fake-billing-provider';
import type { BillingEvent, CheckoutCompletedEvent, SubscriptionChangedEvent } from './billing-provider.port';
import { HandleBillingWebhook } from './handle-billing-webhook.use-case';
import type { Logger } from '../shared/logger.port';

const silent: Logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const T0 = new Date('2026-11-21T09:00:00.000Z');

async function setup() {
  const h = accountsHarness();
  const subscriptions = new InMemorySubscriptionRepository(h.store);
  const handle = new HandleBillingWebhook({ provider: new FakeBillingProvider(), subscriptions, unitOfWork: h.store.unitOfWork, clock: h.clock, logger: silent });
  const organizationId = (await h.ports.organizations.create({ name: 'Acme' })).id;
  const deliver = (event: BillingEvent, signature?: string) => {
    const webhook = FakeBillingProvider.signed(event);
    return handle.execute({ rawBody: webhook.rawBody, signature: signature ?? webhook.signature });
  };
  return { h, subscriptions, organizationId, deliver };
}

const completed = (organizationId: number | null, overrides: Partial<CheckoutCompletedEvent> = {}): CheckoutCompletedEvent => ({
  id: 'evt_checkout',
  kind: 'checkout-completed',
  occurredAt: T0,
  organizationId,
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  priceId: 'price_basic',
  paid: true,
  ...overrides,
});

const changed = (organizationId: number | null, overrides: Partial<SubscriptionChangedEvent> = {}): SubscriptionChangedEvent => ({
  id: 'evt_sub',
  kind: 'subscription-changed',
  occurredAt: new Date(T0.getTime() + 1000),
  organizationId,
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  status: 'active',
  priceId: 'price_basic',
  currentPeriodEnd: new Date('2026-12-21T09:00:00.000Z'),
  ...overrides,
});

describe('HandleBillingWebhook', () => {
  it('activates the organization on a paid checkout, stamped by the clock', async () => {
    const { h, subscriptions, organizationId, deliver } = await setup();
    await expect(deliver(completed(organizationId))).resolves.toBe('applied');
    expect(await subscriptions.findByOrganization(organizationId)).toEqual({
      organizationId,
      status: 'active',
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
      priceId: 'price_basic',
      currentPeriodEnd: null,
      eventAt: T0,
      updatedAt: h.clock.now(),
    });
  });

  it('records an unpaid checkout as incomplete', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    await deliver(completed(organizationId, { paid: false }));
    expect((await subscriptions.findByOrganization(organizationId))?.status).toBe('incomplete');
  });

  it('follows subscription events, finding the organization by customer when metadata lacks it', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    await deliver(completed(organizationId));
    await expect(deliver(changed(null, { id: 'evt_2', status: 'past_due', occurredAt: new Date(T0.getTime() + 5000) }))).resolves.toBe('applied');
    expect(await subscriptions.findByOrganization(organizationId)).toMatchObject({ status: 'past_due', currentPeriodEnd: new Date('2026-12-21T09:00:00.000Z') });
    await deliver(changed(organizationId, { id: 'evt_3', status: 'canceled', occurredAt: new Date(T0.getTime() + 9000) }));
    expect((await subscriptions.findByOrganization(organizationId))?.status).toBe('canceled');
  });

  it('processes a redelivered event once', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    await expect(deliver(changed(organizationId, { id: 'evt_once', status: 'trialing' }))).resolves.toBe('applied');
    // Same id, different content: only possible for a forged event, and still not applied.
    await expect(deliver(changed(organizationId, { id: 'evt_once', status: 'unpaid', occurredAt: new Date(T0.getTime() + 60_000) }))).resolves.toBe('duplicate');
    expect((await subscriptions.findByOrganization(organizationId))?.status).toBe('trialing');
  });

  it('keeps the newer state when events arrive out of order', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    await deliver(changed(organizationId, { id: 'evt_new', status: 'past_due', occurredAt: new Date(T0.getTime() + 10_000) }));
    await expect(deliver(changed(organizationId, { id: 'evt_old', status: 'active' }))).resolves.toBe('skipped');
    expect((await subscriptions.findByOrganization(organizationId))?.status).toBe('past_due');
  });

  it('acknowledges other event types without touching subscriptions', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    await expect(deliver({ id: 'evt_x', kind: 'ignored', type: 'invoice.paid', occurredAt: T0 })).resolves.toBe('ignored');
    expect(await subscriptions.findByOrganization(organizationId)).toBeNull();
  });

  it('acknowledges events for organizations it cannot find', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    await expect(deliver(changed(null, { customerId: 'cus_unknown' }))).resolves.toBe('unknown-organization');
    await expect(deliver(completed(organizationId + 100, { id: 'evt_gone' }))).resolves.toBe('skipped');
    expect(await subscriptions.findByOrganization(organizationId)).toBeNull();
  });

  it('refuses a bad signature before recording anything', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    await expect(deliver(completed(organizationId), 'forged')).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_SIGNATURE' });
    await expect(deliver(completed(organizationId))).resolves.toBe('applied');
    expect(await subscriptions.findByOrganization(organizationId)).not.toBeNull();
  });

  it('forgets the event when applying it fails, so the redelivery is applied', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    const upsert = subscriptions.upsert.bind(subscriptions);
    subscriptions.upsert = async () => {
      throw new Error('database down');
    };
    await expect(deliver(completed(organizationId))).rejects.toThrow('database down');
    subscriptions.upsert = upsert;
    await expect(deliver(completed(organizationId))).resolves.toBe('applied');
  });
});
