import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewPlan } from '../../core/plans/plan';
import type { PlanRepository } from '../../core/plans/plan-repository.port';

export interface PlanRepositoryHarness {
  /** A repository holding exactly the seeded plans again (Free default, Professional, Premium). */
  reset(): Promise<PlanRepository>;
  close(): Promise<void>;
}

const at = (minute: number) => new Date(Date.UTC(2026, 10, 21, 10, minute));

const draft = (overrides: Partial<NewPlan> = {}): NewPlan => ({
  name: 'Team',
  description: 'For teams',
  features: { max_notes: 50 },
  stripeProductId: null,
  createdAt: at(1),
  ...overrides,
});

/** Every PlanRepository adapter: the seed, merges, uniqueness, and exactly one active default. */
export function planRepositoryContract(name: string, setup: () => Promise<PlanRepositoryHarness>): void {
  describe(`PlanRepository contract: ${name}`, () => {
    let harness: PlanRepositoryHarness;
    beforeAll(async () => {
      harness = await setup();
    });
    afterAll(async () => harness?.close());
    // Plans are global: every test starts again from the seed.
    const open = async () => ({ repository: await harness.reset() });

    it('starts with the three seeded plans, Free the default, by id', async () => {
      const { repository } = await open();
      const plans = await repository.list({ includeInactive: false });
      expect(plans.map((p) => [p.name, p.isDefault, p.isActive, p.stripeProductId])).toEqual([
        ['Free', true, true, null],
        ['Professional', false, true, null],
        ['Premium', false, true, null],
      ]);
      expect(plans.map((p) => p.features)).toEqual([
        { max_notes: 10, max_projects: -1, token_limit: 0, enable_ai: false },
        { max_notes: 1000, max_projects: -1, token_limit: 2_000_000, enable_ai: true },
        { max_notes: -1, max_projects: -1, token_limit: 20_000_000, enable_ai: true },
      ]);
      expect((await repository.findDefault()).name).toBe('Free');
      expect(await repository.findById(plans[1]!.id)).toEqual(plans[1]);
      expect(await repository.findById(999_999)).toBeNull();
    });

    it('creates an active, non-default plan and fills omitted features from the catalogue', async () => {
      const { repository } = await open();
      const written = await repository.create(draft({ stripeProductId: 'prod_team' }));
      expect(written).toEqual({
        plan: {
          id: expect.any(Number),
          name: 'Team',
          description: 'For teams',
          features: { max_notes: 50, max_projects: -1, token_limit: 0, enable_ai: false },
          stripeProductId: 'prod_team',
          isDefault: false,
          isActive: true,
          createdAt: at(1),
          updatedAt: at(1),
        },
      });
      const plan = 'plan' in written ? written.plan : undefined;
      expect(await repository.findByStripeProduct('prod_team')).toEqual(plan);
      expect(await repository.findByStripeProduct('prod_nobody')).toBeNull();
    });

    it('refuses a name taken case-insensitively and a product already sold, changing nothing', async () => {
      const { repository } = await open();
      await repository.create(draft({ stripeProductId: 'prod_team' }));
      await expect(repository.create(draft({ name: 'FREE' }))).resolves.toEqual({ conflict: 'name-taken' });
      await expect(repository.create(draft({ name: 'Other', stripeProductId: 'prod_team' }))).resolves.toEqual({ conflict: 'product-taken' });
      const pro = (await repository.list({ includeInactive: true }))[1]!;
      await expect(repository.update(pro.id, { name: 'team', updatedAt: at(2) })).resolves.toEqual({ conflict: 'name-taken' });
      await expect(repository.update(pro.id, { stripeProductId: 'prod_team', updatedAt: at(2) })).resolves.toEqual({ conflict: 'product-taken' });
      expect(await repository.findById(pro.id)).toEqual(pro);
      expect(await repository.list({ includeInactive: true })).toHaveLength(4);
    });

    it('merges features per key, keeps omitted fields, and stamps updatedAt', async () => {
      const { repository } = await open();
      const pro = (await repository.list({ includeInactive: true }))[1]!;
      const written = await repository.update(pro.id, { features: { max_notes: 5, enable_ai: false }, description: null, updatedAt: at(3) });
      expect(written).toEqual({
        plan: { ...pro, description: null, features: { ...pro.features, max_notes: 5, enable_ai: false }, updatedAt: at(3) },
      });
      const again = await repository.update(pro.id, { features: { token_limit: -1 }, stripeProductId: 'prod_pro', updatedAt: at(4) });
      expect(again).toMatchObject({ plan: { features: { max_notes: 5, max_projects: -1, token_limit: -1, enable_ai: false }, stripeProductId: 'prod_pro' } });
      await expect(repository.update(999_999, { name: 'x', updatedAt: at(4) })).resolves.toBeNull();
    });

    it('lists inactive plans only when asked, and still finds them by product', async () => {
      const { repository } = await open();
      const premium = (await repository.list({ includeInactive: true }))[2]!;
      await repository.update(premium.id, { isActive: false, stripeProductId: 'prod_premium', updatedAt: at(5) });
      expect((await repository.list({ includeInactive: false })).map((p) => p.name)).toEqual(['Free', 'Professional']);
      expect((await repository.list({ includeInactive: true })).map((p) => p.name)).toEqual(['Free', 'Professional', 'Premium']);
      expect((await repository.findByStripeProduct('prod_premium'))?.isActive).toBe(false);
    });

    it('moves the default atomically and refuses an inactive default either way', async () => {
      const { repository } = await open();
      const [free, pro, premium] = await repository.list({ includeInactive: true });
      await expect(repository.update(free!.id, { isActive: false, updatedAt: at(6) })).resolves.toEqual({ conflict: 'default-inactive' });
      await repository.update(premium!.id, { isActive: false, updatedAt: at(6) });
      await expect(repository.setDefault(premium!.id, at(7))).resolves.toEqual({ conflict: 'default-inactive' });
      await expect(repository.setDefault(pro!.id, at(7))).resolves.toMatchObject({ plan: { id: pro!.id, isDefault: true, updatedAt: at(7) } });
      const after = await repository.list({ includeInactive: true });
      expect(after.filter((p) => p.isDefault).map((p) => p.name)).toEqual(['Professional']);
      expect(after.find((p) => p.id === free!.id)).toMatchObject({ isDefault: false, updatedAt: at(7) });
      await expect(repository.setDefault(pro!.id, at(8))).resolves.toMatchObject({ plan: { isDefault: true, updatedAt: at(8) } });
      await expect(repository.setDefault(999_999, at(8))).resolves.toBeNull();
    });

    it('keeps exactly one default under concurrent set-default calls', async () => {
      const { repository } = await open();
      const plans = await repository.list({ includeInactive: true });
      await Promise.all([...plans, ...plans].map((plan, i) => repository.setDefault(plan.id, at(10 + i))));
      const defaults = (await repository.list({ includeInactive: true })).filter((p) => p.isDefault);
      expect(defaults).toHaveLength(1);
      expect(await repository.findDefault()).toEqual(defaults[0]);
    });
  });
}
