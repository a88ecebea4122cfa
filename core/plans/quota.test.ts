import { describe, expect, it } from 'vitest';
import { plansHarness } from '../../test/builders/plans';
import { CreateNote } from '../notes/create-note.use-case';
import { DeleteNote } from '../notes/delete-note.use-case';
import { CreateProject } from '../projects/create-project.use-case';
import { GetCurrentPlan } from './get-current-plan.use-case';

async function setup(maxNotes = 3) {
  const h = plansHarness();
  const free = await h.plan('Free');
  await h.plans.update(free.id, { features: { max_notes: maxNotes }, updatedAt: h.clock.now() });
  const alice = await h.aCaller('member');
  const bob = await h.aCaller('member', alice.organizationId);
  return {
    h,
    alice,
    bob,
    createNote: new CreateNote({ notes: h.notes, quota: h.quota, clock: h.clock }),
    deleteNote: new DeleteNote({ notes: h.notes }),
    createProject: new CreateProject({ projects: h.projects, quota: h.quota, clock: h.clock }),
  };
}

describe('max_notes quota', () => {
  it('counts every note of the organization, whoever wrote it, and refuses the one past the limit', async () => {
    const { h, alice, bob, createNote } = await setup(3);
    await createNote.execute(alice, { title: 'a' });
    await createNote.execute(bob, { title: 'b' });
    await createNote.execute(alice, { title: 'c' });
    await expect(createNote.execute(bob, { title: 'd' })).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
      details: { feature_key: 'max_notes', limit: 3 },
    });
    expect(await h.notes.countByOrganization(alice.organizationId)).toBe(3);
  });

  it('gives the slot back on delete', async () => {
    const { alice, createNote, deleteNote } = await setup(1);
    const note = await createNote.execute(alice, { title: 'a' });
    await expect(createNote.execute(alice, { title: 'b' })).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    await deleteNote.execute(alice, { id: note.id });
    await expect(createNote.execute(alice, { title: 'b' })).resolves.toMatchObject({ title: 'b' });
  });

  it('is per organization', async () => {
    const { h, alice, createNote } = await setup(1);
    const other = await h.aCaller('member');
    await createNote.execute(alice, { title: 'a' });
    await expect(createNote.execute(other, { title: 'b' })).resolves.toMatchObject({ title: 'b' });
  });

  it('with one slot left, N concurrent creates give exactly one success', async () => {
    const { h, alice, createNote } = await setup(5);
    for (let i = 0; i < 4; i += 1) await createNote.execute(alice, { title: `n${i}` });
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => createNote.execute(alice, { title: `race ${i}` })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((r) => r.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(await h.notes.countByOrganization(alice.organizationId)).toBe(5);
  });

  it('follows the plan: a limit of 0 refuses all, -1 allows any number, a subscription raises it', async () => {
    const { h, alice, createNote } = await setup(0);
    await expect(createNote.execute(alice, { title: 'a' })).rejects.toMatchObject({ details: { feature_key: 'max_notes', limit: 0 } });
    await h.subscribe(alice.organizationId, 'Premium');
    for (let i = 0; i < 25; i += 1) await createNote.execute(alice, { title: `n${i}` });
    expect(await h.notes.countByOrganization(alice.organizationId)).toBe(25);
  });
});

describe('max_projects quota', () => {
  it('is unlimited on the seeded plans, and enforced when a plan sets it', async () => {
    const { h, alice, createProject } = await setup();
    for (let i = 0; i < 5; i += 1) await createProject.execute(alice, { name: `p${i}` });
    await h.plans.update((await h.plan('Free')).id, { features: { max_projects: 6 }, updatedAt: h.clock.now() });
    await createProject.execute(alice, { name: 'p5' });
    await expect(createProject.execute(alice, { name: 'p6' })).rejects.toMatchObject({
      code: 'QUOTA_EXCEEDED',
      details: { feature_key: 'max_projects', limit: 6 },
    });
  });

  it('leaves a plan already over a lowered limit refusing creates, without deleting anything', async () => {
    const { h, alice, createProject } = await setup();
    for (let i = 0; i < 3; i += 1) await createProject.execute(alice, { name: `p${i}` });
    await h.plans.update((await h.plan('Free')).id, { features: { max_projects: 1 }, updatedAt: h.clock.now() });
    await expect(createProject.execute(alice, { name: 'x' })).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(await h.projects.countByOrganization(alice.organizationId)).toBe(3);
  });
});

describe('GetCurrentPlanUseCase', () => {
  it('reports the plan, no subscription, the calendar month and every feature with its use', async () => {
    const { h, alice, bob, createNote } = await setup(10);
    await createNote.execute(alice, { title: 'a' });
    await createNote.execute(bob, { title: 'b' });
    h.tokensUsed.set(alice.organizationId, 1234);
    const current = await new GetCurrentPlan(h.plansDeps).execute(alice);
    expect(current).toEqual({
      plan: expect.objectContaining({ name: 'Free', isDefault: true }),
      subscription: null,
      period: { start: new Date('2026-11-01T00:00:00.000Z'), end: new Date('2026-12-01T00:00:00.000Z') },
      usage: {
        max_notes: { kind: 'limit', limit: 10, used: 2 },
        max_projects: { kind: 'limit', limit: -1, used: 0 },
        token_limit: { kind: 'metered', limit: 0, used: 1234 },
        enable_ai: { kind: 'flag', limit: false },
      },
    });
  });

  it("reports the subscription's plan, status and period", async () => {
    const { h, alice } = await setup();
    await h.subscribe(alice.organizationId, 'Professional', { status: 'past_due', cancelAtPeriodEnd: true });
    const current = await new GetCurrentPlan(h.plansDeps).execute(alice);
    expect(current.plan.name).toBe('Professional');
    expect(current.subscription).toEqual({ status: 'past_due', currentPeriodEnd: new Date('2026-12-05T08:00:00.000Z'), cancelAtPeriodEnd: true });
    expect(current.period).toEqual({ start: new Date('2026-11-05T08:00:00.000Z'), end: new Date('2026-12-05T08:00:00.000Z') });
    expect(current.usage.enable_ai).toEqual({ kind: 'flag', limit: true });
  });
});
