import { describe, expect, it } from 'vitest';
import { InMemorySubscriptionRepository } from '../../test/builders/adapters';
import { accountsHarness } from '../../test/builders/accounts';
import { FakeBillingProvider } from '../../test/fakes/fake-billing-provider';
import { recordingLogger } from '../../test/support/recording-logger';
import type { BillingEvent, CheckoutCompletedEvent, PaymentCompletedEvent, SubscriptionChangedEvent } from './billing-provider.port';
import type { CreditPackFulfilment, CreditPackPayment } from './credit-pack-fulfilment.port';
import { HandleBillingWebhook } from './handle-billing-webhook.use-case';
import { NO_ORIGIN, SYSTEM_ACTOR } from '../audit/audit-actor';

const T0 = new Date('2026-11-21T09:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

class RecordingFulfilment implements CreditPackFulfilment {
  readonly payments: CreditPackPayment[] = [];
  async fulfil(payment: CreditPackPayment): Promise<void> {
    this.payments.push(payment);
  }
}

async function setup(options: { fulfilment?: CreditPackFulfilment | null } = {}) {
  const h = accountsHarness();
  const subscriptions = new InMemorySubscriptionRepository(h.store);
  const fulfilment = options.fulfilment === undefined ? new RecordingFulfilment() : options.fulfilment;
  const logger = recordingLogger();
  const organizations = h.ports.organizations;
  const handle = new HandleBillingWebhook({ provider: new FakeBillingProvider(), subscriptions, organizations, creditPacks: fulfilment, unitOfWork: h.store.unitOfWork, audit: h.ports.audit, clock: h.clock, logger });
  const organizationId = (await organizations.create({ name: 'Acme' })).id;
  // The customer is created and stored before any checkout: that link is what events follow.
  await subscriptions.saveCustomer(organizationId, 'cus_1', h.clock.now());
  const deliver = (event: BillingEvent, signature?: string) => {
    const webhook = FakeBillingProvider.signed(event);
    return handle.execute({ rawBody: webhook.rawBody, signature: signature ?? webhook.signature });
  };
  return { h, subscriptions, organizations, organizationId, deliver, fulfilment, logger };
}

const completed = (organizationId: number | null, overrides: Partial<CheckoutCompletedEvent> = {}): CheckoutCompletedEvent => ({
  id: 'evt_checkout',
  kind: 'checkout-completed',
  occurredAt: T0,
  organizationId,
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  paid: true,
  ...overrides,
});

const changed = (organizationId: number | null, overrides: Partial<SubscriptionChangedEvent> = {}): SubscriptionChangedEvent => ({
  id: 'evt_sub',
  kind: 'subscription-changed',
  occurredAt: at(1),
  organizationId,
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  status: 'active',
  priceId: 'price_pro',
  productId: 'prod_pro',
  currentPeriodStart: new Date('2026-11-21T09:00:00.000Z'),
  currentPeriodEnd: new Date('2026-12-21T09:00:00.000Z'),
  cancelAtPeriodEnd: false,
  ...overrides,
});

const paid = (organizationId: number | null, overrides: Partial<PaymentCompletedEvent> = {}): PaymentCompletedEvent => ({
  id: 'evt_pack',
  kind: 'payment-completed',
  occurredAt: T0,
  organizationId,
  customerId: 'cus_1',
  checkoutSessionId: 'cs_pack_1',
  packId: 'pack_5m',
  tokens: 5_000_000,
  paid: true,
  ...overrides,
});

describe('HandleBillingWebhook', () => {
  it('links a paid checkout with a provisional active status, stamped by the clock', async () => {
    const { h, subscriptions, organizationId, deliver } = await setup();
    await expect(deliver(completed(organizationId))).resolves.toBe('applied');
    expect(await subscriptions.findByOrganization(organizationId)).toEqual({
      organizationId,
      status: 'active',
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
      priceId: null,
      productId: null,
      currentPeriodStart: null,
      currentPeriodEnd: null,
      cancelAtPeriodEnd: false,
      eventAt: null,
      updatedAt: h.clock.now(),
    });
  });

  it('records an unpaid checkout as incomplete', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    await deliver(completed(organizationId, { paid: false }));
    expect((await subscriptions.findByOrganization(organizationId))?.status).toBe('incomplete');
  });

  it('stores product, price, period start and end and cancel_at_period_end from subscription events', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    await deliver(completed(organizationId));
    await expect(deliver(changed(null, { id: 'evt_2', status: 'past_due', cancelAtPeriodEnd: true, occurredAt: at(5) }))).resolves.toBe('applied');
    expect(await subscriptions.findByOrganization(organizationId)).toMatchObject({
      status: 'past_due',
      productId: 'prod_pro',
      priceId: 'price_pro',
      currentPeriodStart: new Date('2026-11-21T09:00:00.000Z'),
      currentPeriodEnd: new Date('2026-12-21T09:00:00.000Z'),
      cancelAtPeriodEnd: true,
      eventAt: at(5),
    });
    await deliver(changed(organizationId, { id: 'evt_3', status: 'canceled', occurredAt: at(9) }));
    expect((await subscriptions.findByOrganization(organizationId))?.status).toBe('canceled');
  });

  it('lets a subscription event delivered after the checkout win even when it was created before it', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    await deliver(completed(organizationId, { occurredAt: at(10) }));
    await expect(deliver(changed(organizationId, { status: 'trialing', occurredAt: at(1) }))).resolves.toBe('applied');
    expect(await subscriptions.findByOrganization(organizationId)).toMatchObject({ status: 'trialing', productId: 'prod_pro' });
    // And a checkout arriving after a subscription event changes no status.
    await deliver(completed(organizationId, { id: 'evt_checkout_late', occurredAt: at(20) }));
    expect((await subscriptions.findByOrganization(organizationId))?.status).toBe('trialing');
  });

  it('processes a redelivered event once', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    await expect(deliver(changed(organizationId, { id: 'evt_once', status: 'trialing' }))).resolves.toBe('applied');
    // Same id, different content: only possible for a forged event, and still not applied.
    await expect(deliver(changed(organizationId, { id: 'evt_once', status: 'unpaid', occurredAt: at(60) }))).resolves.toBe('duplicate');
    expect((await subscriptions.findByOrganization(organizationId))?.status).toBe('trialing');
  });

  it('keeps the newer state when events arrive out of order; equal times apply the later delivery', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    await deliver(changed(organizationId, { id: 'evt_new', status: 'past_due', occurredAt: at(10) }));
    await expect(deliver(changed(organizationId, { id: 'evt_old', status: 'active' }))).resolves.toBe('skipped');
    expect((await subscriptions.findByOrganization(organizationId))?.status).toBe('past_due');
    await expect(deliver(changed(organizationId, { id: 'evt_tie', status: 'canceled', occurredAt: at(10) }))).resolves.toBe('applied');
    expect((await subscriptions.findByOrganization(organizationId))?.status).toBe('canceled');
  });

  it('acknowledges other event types without touching subscriptions', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    const before = await subscriptions.findByOrganization(organizationId);
    await expect(deliver({ id: 'evt_x', kind: 'ignored', type: 'invoice.paid', occurredAt: T0 })).resolves.toBe('ignored');
    expect(await subscriptions.findByOrganization(organizationId)).toEqual(before);
  });

  it('acknowledges, logs and does not apply events for a customer no organization owns', async () => {
    const { subscriptions, organizationId, deliver, logger } = await setup();
    const before = await subscriptions.findByOrganization(organizationId);
    await expect(deliver(changed(null, { customerId: 'cus_unknown' }))).resolves.toBe('unknown-organization');
    await expect(deliver(changed(organizationId, { id: 'evt_unknown_2', customerId: 'cus_unknown' }))).resolves.toBe('unknown-organization');
    await expect(deliver(completed(organizationId, { id: 'evt_no_customer', customerId: null }))).resolves.toBe('unknown-organization');
    expect(await subscriptions.findByOrganization(organizationId)).toEqual(before);
    expect(logger.lines.filter((line) => line.level === 'warn' && line.message.includes('no organization owns'))).toHaveLength(3);
  });

  describe("the customer's owner, not the metadata, decides which organization an event changes", () => {
    async function twoOrganizations() {
      const base = await setup();
      const other = (await base.organizations.create({ name: 'Other' })).id;
      await base.subscriptions.saveCustomer(other, 'cus_2', base.h.clock.now());
      return { ...base, other };
    }

    it.each([
      ['a subscription event', (org: number) => changed(org, { id: 'evt_theft' })],
      ['a completed checkout', (org: number) => completed(org, { id: 'evt_theft' })],
    ])("logs %s naming another organization than its customer's owner, acknowledges it and applies it to nobody", async (_label, event) => {
      const { subscriptions, organizationId, other, deliver, logger } = await twoOrganizations();
      const [mine, theirs] = [await subscriptions.findByOrganization(organizationId), await subscriptions.findByOrganization(other)];
      await expect(deliver(event(other))).resolves.toBe('organization-mismatch');
      expect(await subscriptions.findByOrganization(organizationId)).toEqual(mine);
      expect(await subscriptions.findByOrganization(other)).toEqual(theirs);
      expect(await subscriptions.findOrganizationByCustomer('cus_1')).toBe(organizationId);
      expect(logger.lines.find((line) => line.level === 'warn' && line.fields.event_id === 'evt_theft')?.fields).toMatchObject({
        organization_id: organizationId,
        named_organization_id: other,
      });
    });

    it('credits no pack to an organization named by the metadata of another organization’s payment', async () => {
      const { other, deliver, fulfilment } = await twoOrganizations();
      await expect(deliver(paid(other))).resolves.toBe('organization-mismatch');
      expect((fulfilment as RecordingFulfilment).payments).toEqual([]);
    });

    it("applies an event without metadata to its customer's owner, and later events keep following the customer", async () => {
      const { subscriptions, organizationId, other, deliver } = await twoOrganizations();
      await expect(deliver(changed(null, { id: 'evt_plain' }))).resolves.toBe('applied');
      await deliver(changed(other, { id: 'evt_theft', occurredAt: at(5) }));
      await expect(deliver(changed(null, { id: 'evt_later', status: 'past_due', occurredAt: at(9) }))).resolves.toBe('applied');
      expect(await subscriptions.findByOrganization(organizationId)).toMatchObject({ customerId: 'cus_1', status: 'past_due' });
      expect(await subscriptions.findByOrganization(other)).toMatchObject({ customerId: 'cus_2', status: null });
    });
  });

  describe('the plan follows the live subscription whichever event arrives', () => {
    it('keeps a live subscription when another, ended subscription of the same customer reports', async () => {
      const { subscriptions, organizationId, deliver } = await setup();
      await deliver(changed(organizationId, { id: 'evt_live', subscriptionId: 'sub_live', productId: 'prod_pro', occurredAt: at(1) }));
      await expect(deliver(changed(organizationId, { id: 'evt_other_ends', subscriptionId: 'sub_other', status: 'canceled', productId: 'prod_basic', occurredAt: at(5) }))).resolves.toBe(
        'applied',
      );
      expect(await subscriptions.findByOrganization(organizationId)).toMatchObject({ subscriptionId: 'sub_live', status: 'active', productId: 'prod_pro' });
    });

    it('moves to a live subscription reported before an ended one was, and orders each subscription by its own events', async () => {
      const { subscriptions, organizationId, deliver } = await setup();
      await deliver(changed(organizationId, { id: 'evt_a_ends', subscriptionId: 'sub_a', status: 'canceled', occurredAt: at(9) }));
      await deliver(changed(organizationId, { id: 'evt_b_live', subscriptionId: 'sub_b', status: 'active', productId: 'prod_basic', occurredAt: at(3) }));
      expect(await subscriptions.findByOrganization(organizationId)).toMatchObject({ subscriptionId: 'sub_b', status: 'active', productId: 'prod_basic' });
      // sub_a's older event is skipped: its own later one is recorded.
      await expect(deliver(changed(organizationId, { id: 'evt_a_old', subscriptionId: 'sub_a', status: 'active', occurredAt: at(2) }))).resolves.toBe('skipped');
      await deliver(changed(organizationId, { id: 'evt_b_ends', subscriptionId: 'sub_b', status: 'canceled', occurredAt: at(12) }));
      expect(await subscriptions.findByOrganization(organizationId)).toMatchObject({ subscriptionId: 'sub_b', status: 'canceled' });
    });
  });

  describe('overage stops with the subscription', () => {
    it('turns overage off when the subscription ends, and logs it', async () => {
      const { organizations, organizationId, deliver, logger } = await setup();
      await deliver(changed(organizationId, { id: 'evt_live' }));
      await organizations.updateSettings(organizationId, { overageEnabled: true });
      await deliver(changed(organizationId, { id: 'evt_past_due', status: 'past_due', occurredAt: at(3) }));
      expect((await organizations.findSettings(organizationId))?.overageEnabled).toBe(true);
      await deliver(changed(organizationId, { id: 'evt_ends', status: 'canceled', occurredAt: at(5) }));
      expect((await organizations.findSettings(organizationId))?.overageEnabled).toBe(false);
      expect(logger.lines.some((line) => line.message.includes('AI overage turned off') && line.fields.organization_id === organizationId)).toBe(true);
    });

    it('leaves overage on when only another, ended subscription reports', async () => {
      const { organizations, organizationId, deliver } = await setup();
      await deliver(changed(organizationId, { id: 'evt_live' }));
      await organizations.updateSettings(organizationId, { overageEnabled: true });
      await deliver(changed(organizationId, { id: 'evt_other', subscriptionId: 'sub_other', status: 'canceled', occurredAt: at(5) }));
      expect((await organizations.findSettings(organizationId))?.overageEnabled).toBe(true);
    });
  });

  it('refuses a bad signature before recording anything', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    await expect(deliver(completed(organizationId), 'forged')).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_SIGNATURE' });
    await expect(deliver(completed(organizationId))).resolves.toBe('applied');
    expect(await subscriptions.findByOrganization(organizationId)).not.toBeNull();
  });

  it('forgets the event when applying it fails, so the redelivery is applied', async () => {
    const { subscriptions, organizationId, deliver } = await setup();
    const applyState = subscriptions.applyState.bind(subscriptions);
    subscriptions.applyState = async () => {
      throw new Error('database down');
    };
    await expect(deliver(changed(organizationId))).rejects.toThrow('database down');
    subscriptions.applyState = applyState;
    await expect(deliver(changed(organizationId))).resolves.toBe('applied');
  });

  it('hands a paid one-time checkout to the credit-pack fulfilment, once, settled by the system', async () => {
    const { organizationId, deliver, fulfilment } = await setup();
    await expect(deliver(paid(organizationId))).resolves.toBe('applied');
    await expect(deliver(paid(organizationId))).resolves.toBe('duplicate');
    expect((fulfilment as RecordingFulfilment).payments).toEqual([
      { organizationId, checkoutSessionId: 'cs_pack_1', packId: 'pack_5m', tokens: 5_000_000, paidAt: T0, by: { actor: SYSTEM_ACTOR, origin: NO_ORIGIN } },
    ]);
  });

  it('leaves an unpaid one-time checkout pending, and finds the organization by customer', async () => {
    const { organizationId, deliver, fulfilment } = await setup();
    await expect(deliver(paid(organizationId, { paid: false }))).resolves.toBe('pending');
    await expect(deliver(paid(null, { id: 'evt_pack_2', checkoutSessionId: 'cs_pack_2' }))).resolves.toBe('applied');
    expect((fulfilment as RecordingFulfilment).payments.map((p) => [p.organizationId, p.checkoutSessionId])).toEqual([[organizationId, 'cs_pack_2']]);
  });

  it('without a fulfilment, fails a paid credit pack (so the provider redelivers it) and records nothing', async () => {
    const { organizationId, deliver, logger } = await setup({ fulfilment: null });
    await expect(deliver(paid(organizationId))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(logger.lines.some((line) => line.level === 'error' && line.fields.checkout_session_id === 'cs_pack_1')).toBe(true);
    await expect(deliver(paid(organizationId))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });
});

describe('HandleBillingWebhook audit events', () => {
  const recorded = async (h: Awaited<ReturnType<typeof setup>>['h'], organizationId: number) =>
    (await h.auditLog.recorded(organizationId)).map((event) => ({ action: event.action, actor: event.actor.type, details: event.details }));

  it('records the start, a change and the end as the system, and a redelivery records nothing', async () => {
    const { h, organizationId, deliver } = await setup();
    await deliver(changed(organizationId));
    await deliver(changed(organizationId));
    await deliver(changed(organizationId, { id: 'evt_cancel', occurredAt: at(2), cancelAtPeriodEnd: true }));
    await deliver(changed(organizationId, { id: 'evt_end', occurredAt: at(3), status: 'canceled', cancelAtPeriodEnd: true }));

    expect((await recorded(h, organizationId)).map((event) => [event.action, event.actor])).toEqual([
      ['subscription.started', 'system'],
      ['subscription.changed', 'system'],
      ['subscription.ended', 'system'],
    ]);
  });

  it('an event older than the stored state changes nothing and records nothing', async () => {
    const { h, organizationId, deliver } = await setup();
    await deliver(changed(organizationId, { occurredAt: at(5) }));
    await expect(deliver(changed(organizationId, { id: 'evt_old', occurredAt: at(1), status: 'canceled' }))).resolves.toBe('skipped');
    expect((await recorded(h, organizationId)).map((event) => event.action)).toEqual(['subscription.started']);
  });

  it('turning overage off when the subscription ends is a settings change of the system', async () => {
    const { h, organizations, organizationId, deliver } = await setup();
    await deliver(changed(organizationId));
    await organizations.updateSettings(organizationId, { overageEnabled: true });
    await deliver(changed(organizationId, { id: 'evt_end', occurredAt: at(2), status: 'canceled' }));

    expect((await recorded(h, organizationId)).slice(1)).toEqual([
      { action: 'subscription.ended', actor: 'system', details: expect.any(Object) },
      { action: 'organization.settings_changed', actor: 'system', details: { from: { overage_enabled: true }, to: { overage_enabled: false } } },
    ]);
  });

  it('an event that cannot be written leaves the subscription as it was and the event unhandled, so the redelivery applies it', async () => {
    const { h, subscriptions, organizationId, deliver } = await setup();
    h.auditLog.failNextRecord();
    await expect(deliver(changed(organizationId))).rejects.toThrow('audit insert failed');
    expect((await subscriptions.findByOrganization(organizationId))?.status).toBeNull();
    await expect(deliver(changed(organizationId))).resolves.toBe('applied');
    expect((await recorded(h, organizationId)).map((event) => event.action)).toEqual(['subscription.started']);
  });
});
