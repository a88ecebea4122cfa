import { afterEach, describe, expect, it } from 'vitest';
import type { CheckoutLink, SubscriptionState } from '../../core/billing/subscription';
import type { SubscriptionRepository } from '../../core/billing/subscription-repository.port';

export interface SubscriptionRepositoryHarness {
  repository: SubscriptionRepository;
  newOrganization(): Promise<number>;
  deleteOrganization(organizationId: number): Promise<void>;
  close(): Promise<void>;
}

const at = (iso: string) => new Date(iso);

const state = (overrides: Partial<SubscriptionState> = {}): SubscriptionState => ({
  status: 'active',
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  priceId: 'price_basic',
  productId: 'prod_basic',
  currentPeriodStart: at('2026-11-21T10:00:00.000Z'),
  currentPeriodEnd: at('2026-12-21T10:00:00.000Z'),
  cancelAtPeriodEnd: false,
  eventAt: at('2026-11-21T10:00:00.000Z'),
  updatedAt: at('2026-11-21T10:00:01.000Z'),
  ...overrides,
});

const link = (overrides: Partial<CheckoutLink> = {}): CheckoutLink => ({
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  provisionalStatus: 'active',
  updatedAt: at('2026-11-21T10:00:02.000Z'),
  ...overrides,
});

/** Every SubscriptionRepository adapter: one record per organization, ordered events, once-only event ids, one customer. */
export function subscriptionRepositoryContract(name: string, setup: () => Promise<SubscriptionRepositoryHarness>): void {
  describe(`SubscriptionRepository contract: ${name}`, () => {
    let harness: SubscriptionRepositoryHarness | undefined;
    const open = async () => (harness = await setup());
    afterEach(async () => {
      await harness?.close();
      harness = undefined;
    });

    it('has nothing for an organization that never subscribed', async () => {
      const { repository, newOrganization } = await open();
      expect(await repository.findByOrganization(await newOrganization())).toBeNull();
      expect(await repository.findOrganizationByCustomer('cus_nobody')).toBeNull();
    });

    it('creates, then replaces the subscription state of an organization', async () => {
      const { repository, newOrganization } = await open();
      const org = await newOrganization();
      await expect(repository.applyState(org, state())).resolves.toBe(true);
      expect(await repository.findByOrganization(org)).toEqual({ organizationId: org, ...state() });
      const later = state({
        status: 'past_due',
        priceId: 'price_pro',
        productId: 'prod_pro',
        cancelAtPeriodEnd: true,
        currentPeriodStart: null,
        currentPeriodEnd: null,
        eventAt: at('2026-11-22T10:00:00.000Z'),
        updatedAt: at('2026-11-22T10:00:01.000Z'),
      });
      await expect(repository.applyState(org, later)).resolves.toBe(true);
      expect(await repository.findByOrganization(org)).toEqual({ organizationId: org, ...later });
      expect(await repository.findOrganizationByCustomer('cus_1')).toBe(org);
    });

    it('ignores a state older than the stored one, and applies one of the same instant', async () => {
      const { repository, newOrganization } = await open();
      const org = await newOrganization();
      await repository.applyState(org, state({ status: 'active' }));
      await expect(repository.applyState(org, state({ status: 'incomplete', eventAt: at('2026-11-21T09:59:59.999Z') }))).resolves.toBe(false);
      expect((await repository.findByOrganization(org))?.status).toBe('active');
      await expect(repository.applyState(org, state({ status: 'trialing' }))).resolves.toBe(true);
      expect((await repository.findByOrganization(org))?.status).toBe('trialing');
    });

    it('stores a customer once: the first one stored wins, also under concurrent calls', async () => {
      const { repository, newOrganization } = await open();
      const org = await newOrganization();
      const results = await Promise.all(['cus_a', 'cus_b', 'cus_c'].map((id) => repository.saveCustomer(org, id, at('2026-11-21T10:00:00.000Z'))));
      expect(new Set(results).size).toBe(1);
      const stored = await repository.findByOrganization(org);
      expect(stored).toMatchObject({ customerId: results[0], status: null, eventAt: null, productId: null, cancelAtPeriodEnd: false });
      await expect(repository.saveCustomer(org, 'cus_z', at('2026-11-21T11:00:00.000Z'))).resolves.toBe(results[0]);
      expect(await repository.findOrganizationByCustomer(results[0]!)).toBe(org);
    });

    it('links a checkout: fills unknown ids and sets a provisional status only until a subscription event', async () => {
      const { repository, newOrganization } = await open();
      const org = await newOrganization();
      await repository.saveCustomer(org, 'cus_1', at('2026-11-21T09:00:00.000Z'));
      await expect(repository.linkCheckout(org, link({ customerId: 'cus_other' }))).resolves.toBe(true);
      expect(await repository.findByOrganization(org)).toMatchObject({ customerId: 'cus_1', subscriptionId: 'sub_1', status: 'active', eventAt: null });
      await repository.applyState(org, state({ status: 'trialing', subscriptionId: 'sub_1' }));
      await expect(repository.linkCheckout(org, link({ subscriptionId: 'sub_2', provisionalStatus: 'incomplete' }))).resolves.toBe(true);
      expect(await repository.findByOrganization(org)).toMatchObject({ status: 'trialing', subscriptionId: 'sub_1', customerId: 'cus_1' });
    });

    it('lets an older subscription event replace a provisional checkout status', async () => {
      const { repository, newOrganization } = await open();
      const org = await newOrganization();
      await repository.linkCheckout(org, link());
      await expect(repository.applyState(org, state({ status: 'incomplete', eventAt: at('2020-01-01T00:00:00.000Z') }))).resolves.toBe(true);
      expect((await repository.findByOrganization(org))?.status).toBe('incomplete');
    });

    it('keeps organizations apart', async () => {
      const { repository, newOrganization } = await open();
      const [a, b] = [await newOrganization(), await newOrganization()];
      await repository.applyState(a, state({ customerId: 'cus_a' }));
      await repository.applyState(b, state({ customerId: 'cus_b', subscriptionId: 'sub_b', status: 'trialing' }));
      expect(await repository.findByOrganization(a)).toMatchObject({ customerId: 'cus_a', status: 'active' });
      expect(await repository.findByOrganization(b)).toMatchObject({ customerId: 'cus_b', status: 'trialing' });
      expect(await repository.findOrganizationByCustomer('cus_b')).toBe(b);
    });

    it('gives a customer to one organization only: storing it for another one fails, also when both race', async () => {
      const { repository, newOrganization } = await open();
      const [a, b, c, d] = [await newOrganization(), await newOrganization(), await newOrganization(), await newOrganization()];
      await repository.saveCustomer(a, 'cus_a', at('2026-11-21T10:00:00.000Z'));
      await expect(repository.saveCustomer(b, 'cus_a', at('2026-11-21T10:00:01.000Z'))).rejects.toThrow();
      expect(await repository.findByOrganization(b)).toBeNull();
      expect(await repository.findOrganizationByCustomer('cus_a')).toBe(a);
      const raced = await Promise.allSettled([c, d].map((org) => repository.saveCustomer(org, 'cus_raced', at('2026-11-21T10:00:02.000Z'))));
      expect(raced.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
      const winner = (await repository.findByOrganization(c))?.customerId === 'cus_raced' ? c : d;
      expect(await repository.findOrganizationByCustomer('cus_raced')).toBe(winner);
    });

    it('never changes the stored customer when applying a state', async () => {
      const { repository, newOrganization } = await open();
      const org = await newOrganization();
      await repository.saveCustomer(org, 'cus_1', at('2026-11-21T09:00:00.000Z'));
      await repository.applyState(org, state({ customerId: 'cus_elsewhere' }));
      expect(await repository.findByOrganization(org)).toMatchObject({ customerId: 'cus_1', status: 'active' });
      expect(await repository.findOrganizationByCustomer('cus_elsewhere')).toBeNull();
    });

    it('follows the live subscription: another, ended subscription of the customer does not replace it, in any order', async () => {
      const { repository, newOrganization } = await open();
      const org = await newOrganization();
      const live = state({ subscriptionId: 'sub_live', productId: 'prod_pro', eventAt: at('2026-11-21T10:00:00.000Z') });
      const ended = state({ subscriptionId: 'sub_ended', status: 'canceled', productId: 'prod_basic', eventAt: at('2026-11-21T11:00:00.000Z') });
      await expect(repository.applyState(org, ended)).resolves.toBe(true);
      await expect(repository.applyState(org, live)).resolves.toBe(true);
      await expect(repository.applyState(org, { ...ended, eventAt: at('2026-11-21T12:00:00.000Z') })).resolves.toBe(true);
      expect(await repository.findByOrganization(org)).toMatchObject({ subscriptionId: 'sub_live', status: 'active', productId: 'prod_pro', eventAt: live.eventAt });
      // Each subscription is ordered by its own events: the live one's old event is ignored, its end is not.
      await expect(repository.applyState(org, { ...live, status: 'incomplete', eventAt: at('2026-11-21T09:00:00.000Z') })).resolves.toBe(false);
      await repository.applyState(org, { ...live, status: 'canceled', eventAt: at('2026-11-21T13:00:00.000Z') });
      expect(await repository.findByOrganization(org)).toMatchObject({ subscriptionId: 'sub_live', status: 'canceled' });
      // Of two live subscriptions, the one reported last.
      await repository.applyState(org, state({ subscriptionId: 'sub_new', status: 'trialing', eventAt: at('2026-11-21T14:00:00.000Z') }));
      expect(await repository.findByOrganization(org)).toMatchObject({ subscriptionId: 'sub_new', status: 'trialing' });
    });

    it('holds a live subscription only while there is one', async () => {
      const { repository, newOrganization } = await open();
      const org = await newOrganization();
      await expect(repository.holdLiveSubscription(org)).resolves.toBe(false);
      await repository.saveCustomer(org, 'cus_1', at('2026-11-21T09:00:00.000Z'));
      await expect(repository.holdLiveSubscription(org)).resolves.toBe(false);
      for (const [i, status] of (['active', 'trialing', 'past_due', 'incomplete', 'unpaid', 'canceled'] as const).entries()) {
        await repository.applyState(org, state({ status, eventAt: new Date(at('2026-11-21T10:00:00.000Z').getTime() + i * 1000) }));
        await expect(repository.holdLiveSubscription(org), status).resolves.toBe(['active', 'trialing', 'past_due'].includes(status));
      }
    });

    it('writes nothing for an organization that does not exist', async () => {
      const { repository, newOrganization } = await open();
      const missing = (await newOrganization()) + 1000;
      await expect(repository.applyState(missing, state())).resolves.toBe(false);
      await expect(repository.linkCheckout(missing, link())).resolves.toBe(false);
      await expect(repository.saveCustomer(missing, 'cus_x', at('2026-11-21T10:00:00.000Z'))).resolves.toBeNull();
      expect(await repository.findByOrganization(missing)).toBeNull();
    });

    it('deletes the record with its organization', async () => {
      const { repository, newOrganization, deleteOrganization } = await open();
      const org = await newOrganization();
      await repository.applyState(org, state());
      await deleteOrganization(org);
      expect(await repository.findByOrganization(org)).toBeNull();
      expect(await repository.findOrganizationByCustomer('cus_1')).toBeNull();
    });

    it('records an event id once, also under concurrent redelivery', async () => {
      const { repository } = await open();
      await expect(repository.recordEvent('evt_1', at('2026-11-21T10:00:00.000Z'))).resolves.toBe(true);
      await expect(repository.recordEvent('evt_1', at('2026-11-21T10:05:00.000Z'))).resolves.toBe(false);
      const results = await Promise.all(Array.from({ length: 6 }, () => repository.recordEvent('evt_2', at('2026-11-21T10:00:00.000Z'))));
      expect(results.filter(Boolean)).toHaveLength(1);
    });
  });
}
