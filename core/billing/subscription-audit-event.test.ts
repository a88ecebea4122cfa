import { describe, expect, it } from 'vitest';
import type { Subscription, SubscriptionStatus } from './subscription';
import { subscriptionAuditEvent } from './subscription-audit-event';

const record = (status: SubscriptionStatus | null, overrides: Partial<Subscription> = {}): Subscription => ({
  organizationId: 7,
  status,
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  priceId: 'price_pro',
  productId: 'prod_pro',
  currentPeriodStart: new Date('2026-11-01T00:00:00.000Z'),
  currentPeriodEnd: new Date('2026-12-01T00:00:00.000Z'),
  cancelAtPeriodEnd: false,
  eventAt: new Date('2026-11-01T00:00:00.000Z'),
  updatedAt: new Date('2026-11-01T00:00:00.000Z'),
  ...overrides,
});

const actionOf = (before: Subscription | null, after: Subscription | null) => subscriptionAuditEvent(7, before, after)?.action ?? null;

describe('subscriptionAuditEvent', () => {
  it('starts when the record becomes live, from nothing, a customer alone or an ended subscription', () => {
    expect(actionOf(null, record('active'))).toBe('subscription.started');
    expect(actionOf(record(null, { subscriptionId: null, priceId: null, productId: null }), record('trialing'))).toBe('subscription.started');
    expect(actionOf(record('canceled'), record('active', { subscriptionId: 'sub_2' }))).toBe('subscription.started');
  });

  it('ends when a live record stops being live', () => {
    for (const status of ['canceled', 'unpaid', 'paused', 'incomplete_expired'] as const) {
      expect(actionOf(record('past_due'), record(status))).toBe('subscription.ended');
    }
  });

  it('changes when a live one changes status, plan, subscription or its cancellation at period end', () => {
    expect(actionOf(record('active'), record('past_due'))).toBe('subscription.changed');
    expect(actionOf(record('active'), record('active', { priceId: 'price_premium', productId: 'prod_premium' }))).toBe('subscription.changed');
    expect(actionOf(record('active'), record('active', { subscriptionId: 'sub_2' }))).toBe('subscription.changed');
    expect(actionOf(record('active'), record('active', { cancelAtPeriodEnd: true }))).toBe('subscription.changed');
  });

  it('records nothing for a renewal, a record that never went live, or a provisional record being filled in', () => {
    const renewed = record('active', { currentPeriodStart: new Date('2026-12-01T00:00:00.000Z'), currentPeriodEnd: new Date('2027-01-01T00:00:00.000Z') });
    expect(actionOf(record('active'), renewed)).toBeNull();
    expect(actionOf(record('incomplete'), record('incomplete_expired'))).toBeNull();
    expect(actionOf(record('active', { priceId: null, productId: null }), record('active'))).toBeNull();
  });

  it('is the system’s, targets the subscription and says where it stood before and after, nothing of the payment', () => {
    expect(subscriptionAuditEvent(7, record('active'), record('canceled', { cancelAtPeriodEnd: true }))).toEqual({
      organizationId: 7,
      action: 'subscription.ended',
      actor: { type: 'system', id: null },
      target: { type: 'subscription', id: 'sub_1' },
      origin: { ip: null, userAgent: null },
      details: {
        from: { status: 'active', product_id: 'prod_pro', price_id: 'price_pro', cancel_at_period_end: false },
        to: { status: 'canceled', product_id: 'prod_pro', price_id: 'price_pro', cancel_at_period_end: true },
      },
    });
  });
});
