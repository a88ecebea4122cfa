import { describe, expect, it } from 'vitest';
import { plansHarness } from '../../test/builders/plans';
import type { UserCaller } from '../access/caller';
import { CreateNote } from './create-note.use-case';
import { DeleteNote } from './delete-note.use-case';
import { GetNote } from './get-note.use-case';
import { ListNotes } from './list-notes.use-case';
import type { NotesDeps } from './notes-deps';
import { UpdateNote } from './update-note.use-case';

async function setup() {
  const h = plansHarness();
  // Plenty of room: quotas have their own tests.
  await h.plans.update((await h.plan('Free')).id, { features: { max_notes: -1 }, updatedAt: h.clock.now() });
  const alice = await h.aCaller('member');
  const bob = await h.aCaller('member', alice.organizationId);
  const stranger = await h.aCaller('org_admin');
  const deps: NotesDeps = { notes: h.notes, quota: h.quota, clock: h.clock };
  return {
    h,
    alice,
    bob,
    stranger,
    create: new CreateNote(deps),
    list: new ListNotes(deps),
    get: new GetNote(deps),
    update: new UpdateNote(deps),
    remove: new DeleteNote(deps),
  };
}

describe('notes use cases', () => {
  it('creates a note owned by the caller, content defaulting to empty, stamped by the clock', async () => {
    const { h, alice, create } = await setup();
    const note = await create.execute(alice, { title: 'Groceries' });
    expect(note).toEqual({
      id: expect.any(Number),
      organizationId: alice.organizationId,
      userId: alice.userId,
      title: 'Groceries',
      content: '',
      createdAt: h.clock.now(),
      updatedAt: h.clock.now(),
    });
  });

  it("shows a caller only their own notes: a colleague's or another organization's is not found", async () => {
    const { alice, bob, stranger, create, get, update, remove, list } = await setup();
    const note = await create.execute(alice, { title: 'mine', content: 'secret' });
    for (const other of [bob, stranger]) {
      await expect(get.execute(other, { id: note.id })).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
        details: { resource: 'note', resource_id: note.id },
      });
      await expect(update.execute(other, { id: note.id, title: 'x' })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
      await expect(remove.execute(other, { id: note.id })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
      expect((await list.execute(other, { limit: 100 })).items).toEqual([]);
    }
    expect(await get.execute(alice, { id: note.id })).toMatchObject({ title: 'mine', content: 'secret' });
  });

  it('updates only the given fields (null keeps), and always stamps updatedAt', async () => {
    const { h, alice, create, update } = await setup();
    const note = await create.execute(alice, { title: 't', content: 'c' });
    h.clock.advanceSeconds(30);
    const renamed = await update.execute(alice, { id: note.id, title: 'T', content: null });
    expect(renamed).toMatchObject({ title: 'T', content: 'c', createdAt: note.createdAt, updatedAt: h.clock.now() });
    h.clock.advanceSeconds(30);
    expect(await update.execute(alice, { id: note.id })).toMatchObject({ title: 'T', content: 'c', updatedAt: h.clock.now() });
    expect(await update.execute(alice, { id: note.id, content: '' })).toMatchObject({ content: '' });
  });

  it('deletes once: a second delete is RESOURCE_NOT_FOUND', async () => {
    const { alice, create, remove, get } = await setup();
    const note = await create.execute(alice, { title: 't' });
    await remove.execute(alice, { id: note.id });
    await expect(get.execute(alice, { id: note.id })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    await expect(remove.execute(alice, { id: note.id })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('lists newest first and pages by cursor without skipping or repeating, even with equal timestamps', async () => {
    const { h, alice, bob, create, list } = await setup();
    const ids: number[] = [];
    for (let i = 0; i < 7; i += 1) {
      if (i % 3 === 0) h.clock.advanceSeconds(1);
      ids.push((await create.execute(alice, { title: `n${i}` })).id);
      await create.execute(bob, { title: `bob ${i}` });
    }
    expect((await list.execute(alice, { limit: 100 })).items.map((n) => n.id)).toEqual([...ids].reverse());
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await list.execute(alice, { limit: 3, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((n) => n.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    const exact = await list.execute(alice, { limit: 7 });
    expect(exact.nextCursor).toBeNull();
  });

  it('refuses a cursor it did not produce', async () => {
    const { alice, list } = await setup();
    await expect(list.execute(alice, { limit: 3, cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', details: { cursor: 'Invalid cursor' } });
  });

  it('refuses readonly callers on every note action, reads included', async () => {
    const { h, alice, create, list, get, update, remove } = await setup();
    const note = await create.execute(alice, { title: 't' });
    const reader: UserCaller = await h.aCaller('readonly', alice.organizationId);
    await expect(create.execute(reader, { title: 'x' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(list.execute(reader, { limit: 100 })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(get.execute(reader, { id: note.id })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(update.execute(reader, { id: note.id, title: 'x' })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    await expect(remove.execute(reader, { id: note.id })).rejects.toMatchObject({ code: 'ACCESS_DENIED' });
    expect(await h.notes.countByOrganization(alice.organizationId)).toBe(1);
  });

  it("deleting a user or an organization deletes their notes", async () => {
    const { h, alice, bob, stranger, create } = await setup();
    await create.execute(alice, { title: 'a' });
    await create.execute(bob, { title: 'b' });
    await create.execute(stranger, { title: 's' });
    h.store.deleteUser(alice.userId);
    expect(await h.notes.countByOrganization(alice.organizationId)).toBe(1);
    h.store.deleteOrganization(alice.organizationId);
    expect(await h.notes.countByOrganization(alice.organizationId)).toBe(0);
    expect(await h.notes.countByOrganization(stranger.organizationId)).toBe(1);
  });
});
