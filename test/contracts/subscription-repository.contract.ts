import { afterEach, describe, expect, it } from 'vitest';
import type { SubscriptionChange } from '../../core/billing/subscription';
import type { SubscriptionRepository } from '../../core/billing/subscription-repository.port';

export interface SubscriptionRepositoryHarness {
  repository: SubscriptionRepository;
  newOrganization(): Promise<number>;
  deleteOrganization(organizationId: number): Promise<void>;
  close(): Promise<void>;
}

const at = (iso: string) => new Date(iso);

const change = (overrides: Partial<SubscriptionChange> = {}): SubscriptionChange => ({
  status: 'active',
  customerId: 'cus_1',
  subscriptionId: 'sub_1',
  priceId: 'price_basic',
  currentPeriodEnd: at('2026-12-21T10:00:00.000Z'),
  eventAt: at('2026-11-21T10:00:00.000Z'),
  updatedAt: at('2026-11-21T10:00:01.000Z'),
  ...overrides,
});

/** Every SubscriptionRepository adapter: one row per organization, ordered events, once-only event ids. */
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

    it('creates, then updates the one subscription of an organization', async () => {
      const { repository, newOrganization } = await open();
      const org = await newOrganization();
      await expect(repository.upsert(org, change())).resolves.toBe(true);
      expect(await repository.findByOrganization(org)).toEqual({ organizationId: org, ...change() });
      const later = change({ status: 'past_due', priceId: 'price_pro', eventAt: at('2026-11-22T10:00:00.000Z'), updatedAt: at('2026-11-22T10:00:01.000Z') });
      await expect(repository.upsert(org, later)).resolves.toBe(true);
      expect(await repository.findByOrganization(org)).toEqual({ organizationId: org, ...later });
      expect(await repository.findOrganizationByCustomer('cus_1')).toBe(org);
    });

    it('keeps stored ids, price and period end when a change leaves them null', async () => {
      const { repository, newOrganization } = await open();
      const org = await newOrganization();
      await repository.upsert(org, change());
      const bare = change({ status: 'canceled', customerId: null, subscriptionId: null, priceId: null, currentPeriodEnd: null, eventAt: at('2026-11-23T00:00:00.000Z') });
      await expect(repository.upsert(org, bare)).resolves.toBe(true);
      expect(await repository.findByOrganization(org)).toMatchObject({
        status: 'canceled',
        customerId: 'cus_1',
        subscriptionId: 'sub_1',
        priceId: 'price_basic',
        currentPeriodEnd: at('2026-12-21T10:00:00.000Z'),
        eventAt: at('2026-11-23T00:00:00.000Z'),
      });
    });

    it('ignores an event older than the stored state, and applies one of the same instant', async () => {
      const { repository, newOrganization } = await open();
      const org = await newOrganization();
      await repository.upsert(org, change({ status: 'active' }));
      await expect(repository.upsert(org, change({ status: 'incomplete', eventAt: at('2026-11-21T09:59:59.000Z') }))).resolves.toBe(false);
      expect((await repository.findByOrganization(org))?.status).toBe('active');
      await expect(repository.upsert(org, change({ status: 'trialing' }))).resolves.toBe(true);
      expect((await repository.findByOrganization(org))?.status).toBe('trialing');
    });

    it('keeps organizations apart', async () => {
      const { repository, newOrganization } = await open();
      const [a, b] = [await newOrganization(), await newOrganization()];
      await repository.upsert(a, change({ customerId: 'cus_a' }));
      await repository.upsert(b, change({ customerId: 'cus_b', status: 'trialing' }));
      expect(await repository.findByOrganization(a)).toMatchObject({ customerId: 'cus_a', status: 'active' });
      expect(await repository.findByOrganization(b)).toMatchObject({ customerId: 'cus_b', status: 'trialing' });
      expect(await repository.findOrganizationByCustomer('cus_b')).toBe(b);
    });

    it('writes nothing for an organization that does not exist', async () => {
      const { repository, newOrganization } = await open();
      const org = await newOrganization();
      await expect(repository.upsert(org + 1000, change())).resolves.toBe(false);
      expect(await repository.findByOrganization(org + 1000)).toBeNull();
    });

    it('deletes the subscription with its organization', async () => {
      const { repository, newOrganization, deleteOrganization } = await open();
      const org = await newOrganization();
      await repository.upsert(org, change());
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
