import { describe, expect, it } from 'vitest';
import { plansHarness } from '../../test/builders/plans';
import { CreatePlan } from './create-plan.use-case';
import { ListPlans } from './list-plans.use-case';
import { SetDefaultPlan } from './set-default-plan.use-case';
import { UpdatePlan } from './update-plan.use-case';

async function setup() {
  const h = plansHarness();
  return {
    h,
    admin: await h.aCaller('sys_admin'),
    orgAdmin: await h.aCaller('org_admin'),
    list: new ListPlans(h.plansDeps),
    create: new CreatePlan(h.plansDeps),
    update: new UpdatePlan(h.plansDeps),
    setDefault: new SetDefaultPlan(h.plansDeps),
  };
}

describe('plans', () => {
  it('starts with Free (default), Professional and Premium, with the seeded features', async () => {
    const { list, orgAdmin } = await setup();
    const plans = await list.execute(orgAdmin, { includeInactive: false });
    expect(plans.map((p) => [p.name, p.isDefault, p.isActive, p.stripeProductId, p.features])).toEqual([
      ['Free', true, true, null, { max_notes: 10, max_projects: -1, token_limit: 0, enable_ai: false }],
      ['Professional', false, true, null, { max_notes: 1000, max_projects: -1, token_limit: 2_000_000, enable_ai: true }],
      ['Premium', false, true, null, { max_notes: -1, max_projects: -1, token_limit: 20_000_000, enable_ai: true }],
    ]);
  });

  it('lets only a sys_admin see inactive plans', async () => {
    const { h, list, update, admin, orgAdmin } = await setup();
    const premium = await h.plan('Premium');
    await update.execute(admin, { id: premium.id, isActive: false });
    expect((await list.execute(orgAdmin, { includeInactive: false })).map((p) => p.name)).toEqual(['Free', 'Professional']);
    expect((await list.execute(admin, { includeInactive: true })).map((p) => p.name)).toEqual(['Free', 'Professional', 'Premium']);
    await expect(list.execute(orgAdmin, { includeInactive: true })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
  });

  it('creates an active, non-default plan; omitted features follow the catalogue defaults', async () => {
    const { h, create, admin } = await setup();
    const plan = await create.execute(admin, { name: 'Team', features: { max_notes: 50, enable_ai: true }, stripeProductId: 'prod_team' });
    expect(plan).toEqual({
      id: expect.any(Number),
      name: 'Team',
      description: null,
      features: { max_notes: 50, max_projects: -1, token_limit: 0, enable_ai: true },
      stripeProductId: 'prod_team',
      isDefault: false,
      isActive: true,
      createdAt: h.clock.now(),
      updatedAt: h.clock.now(),
    });
  });

  it('refuses bad feature maps with field paths, and stores nothing', async () => {
    const { h, create, update, admin } = await setup();
    await expect(create.execute(admin, { name: 'Bad', features: { max_notes: -2, nope: 1 } })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { 'features.max_notes': expect.any(String), 'features.nope': expect.any(String) },
    });
    const free = await h.plan('Free');
    await expect(update.execute(admin, { id: free.id, features: { enable_ai: 1 } })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { 'features.enable_ai': 'Must be a boolean' },
    });
    expect((await h.plans.list({ includeInactive: true })).map((p) => p.name)).toEqual(['Free', 'Professional', 'Premium']);
    expect((await h.plan('Free')).features.enable_ai).toBe(false);
  });

  it('refuses duplicate names (case-insensitively) and duplicate products with CONFLICT', async () => {
    const { h, create, update, admin } = await setup();
    await expect(create.execute(admin, { name: 'free' })).rejects.toMatchObject({ code: 'CONFLICT', details: { reason: 'name_taken' } });
    await create.execute(admin, { name: 'Team', stripeProductId: 'prod_x' });
    const pro = await h.plan('Professional');
    await expect(update.execute(admin, { id: pro.id, name: 'TEAM' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(update.execute(admin, { id: pro.id, stripeProductId: 'prod_x' })).rejects.toMatchObject({ code: 'CONFLICT', details: { reason: 'product_taken' } });
    // Renaming a plan to its own name in another case is not a conflict.
    await expect(update.execute(admin, { id: pro.id, name: 'PROFESSIONAL' })).resolves.toMatchObject({ name: 'PROFESSIONAL' });
  });

  it('merges features per key and stamps updatedAt; null unlinks the product', async () => {
    const { h, update, admin } = await setup();
    const pro = await h.plan('Professional');
    await update.execute(admin, { id: pro.id, stripeProductId: 'prod_pro' });
    h.clock.advanceSeconds(60);
    const updated = await update.execute(admin, { id: pro.id, features: { max_notes: 2000 }, description: null });
    expect(updated.features).toEqual({ max_notes: 2000, max_projects: -1, token_limit: 2_000_000, enable_ai: true });
    expect(updated.description).toBeNull();
    expect(updated.stripeProductId).toBe('prod_pro');
    expect(updated.updatedAt).toEqual(h.clock.now());
    expect(updated.createdAt).toEqual(pro.createdAt);
    expect((await update.execute(admin, { id: pro.id, stripeProductId: null })).stripeProductId).toBeNull();
  });

  it('keeps exactly one default: set-default moves it, and the default cannot be deactivated', async () => {
    const { h, update, setDefault, admin } = await setup();
    const free = await h.plan('Free');
    const pro = await h.plan('Professional');
    await expect(update.execute(admin, { id: free.id, isActive: false })).rejects.toMatchObject({ code: 'CONFLICT', details: { reason: 'default_inactive' } });
    expect(await setDefault.execute(admin, { id: pro.id })).toMatchObject({ name: 'Professional', isDefault: true });
    const plans = await h.plans.list({ includeInactive: true });
    expect(plans.filter((p) => p.isDefault).map((p) => p.name)).toEqual(['Professional']);
    await expect(update.execute(admin, { id: free.id, isActive: false })).resolves.toMatchObject({ isActive: false });
    await expect(setDefault.execute(admin, { id: free.id })).rejects.toMatchObject({ code: 'CONFLICT', details: { reason: 'default_inactive' } });
    expect((await h.plans.findDefault()).name).toBe('Professional');
    await expect(setDefault.execute(admin, { id: pro.id })).resolves.toMatchObject({ isDefault: true });
  });

  it('answers RESOURCE_NOT_FOUND for an unknown plan', async () => {
    const { update, setDefault, admin } = await setup();
    await expect(update.execute(admin, { id: 999, name: 'x' })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resource: 'plan', resource_id: 999 } });
    await expect(setDefault.execute(admin, { id: 999 })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it.each(['readonly', 'member', 'org_admin'] as const)('refuses every change to a %s', async (role) => {
    const { h, create, update, setDefault } = await setup();
    const caller = await h.aCaller(role);
    const pro = await h.plan('Professional');
    await expect(create.execute(caller, { name: 'x' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(update.execute(caller, { id: pro.id, name: 'x' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(setDefault.execute(caller, { id: pro.id })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect((await h.plans.findDefault()).name).toBe('Free');
  });
});
