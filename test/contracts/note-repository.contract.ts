import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Note } from '../../core/notes/note';
import type { NewNote, NoteOwner, NoteRepository } from '../../core/notes/note-repository.port';
import { UNLIMITED } from '../../core/plans/feature-catalogue';
import type { Tenants } from './tenants';

/** The repository under test, and organizations and users to own its notes (a new tenant's user is a NoteOwner). */
export interface NoteRepositoryHarness extends Tenants {
  repository: NoteRepository;
  close(): Promise<void>;
}

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const at = (minutes: number, ms = 0) => new Date(T0 + minutes * 60_000 + ms);
const draft = (overrides: Partial<NewNote> = {}): NewNote => ({ title: 'Groceries', content: 'milk', createdAt: at(0), ...overrides });

/**
 * The NoteRepository contract, run against every adapter. Each test works in organizations it
 * creates, so tests share one store and never clean up after each other.
 */
export function noteRepositoryContract(name: string, open: () => Promise<NoteRepositoryHarness>): void {
  describe(`NoteRepository contract: ${name}`, () => {
    let harness: NoteRepositoryHarness;
    let repository: NoteRepository;

    beforeAll(async () => {
      harness = await open();
      repository = harness.repository;
    });
    /** A note created with no limit in the way. */
    const create = async (owner: NoteOwner, note: NewNote): Promise<Note> => (await repository.createWithinLimit(owner, note, UNLIMITED))!;
    afterAll(async () => harness?.close());

    it('creates a note owned by the user, updatedAt equal to createdAt, and finds it', async () => {
      const owner = await harness.newTenant();
      const note = await create(owner, draft({ content: 'émoji 🚀 and "quotes"; semicolons' }));
      expect(note).toEqual({
        id: expect.any(Number),
        ...owner,
        title: 'Groceries',
        content: 'émoji 🚀 and "quotes"; semicolons',
        createdAt: at(0),
        updatedAt: at(0),
      });
      expect(await repository.findById(owner, note.id)).toEqual(note);
    });

    it("never shows another user's or another organization's note: null and false, untouched", async () => {
      const alice = await harness.newTenant();
      const bob = { organizationId: alice.organizationId, userId: await harness.newUser(alice.organizationId) };
      const stranger = await harness.newTenant();
      const note = await create(alice, draft());
      for (const other of [bob, stranger, { organizationId: stranger.organizationId, userId: alice.userId }]) {
        expect(await repository.findById(other, note.id)).toBeNull();
        expect(await repository.update(other, note.id, { title: 'x', updatedAt: at(1) })).toBeNull();
        expect(await repository.delete(other, note.id)).toBe(false);
        expect(await repository.list(other)).toEqual([]);
      }
      expect(await repository.findById(alice, note.id)).toEqual(note);
    });

    it('lists newest first with id breaking ties, and pages by position without skips or repeats', async () => {
      const owner = await harness.newTenant();
      const times = [at(0), at(1), at(1), at(1), at(2), at(0, 1)];
      const created = [];
      for (const createdAt of times) created.push(await create(owner, draft({ createdAt })));
      const expected = [...created].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id).map((n) => n.id);
      expect((await repository.list(owner)).map((n) => n.id)).toEqual(expected);
      const seen: number[] = [];
      let after: { createdAt: Date; id: number } | undefined;
      for (;;) {
        const page = await repository.list(owner, { limit: 2, ...(after ? { after } : {}) });
        if (page.length === 0) break;
        seen.push(...page.map((n) => n.id));
        after = page.at(-1)!;
      }
      expect(seen).toEqual(expected);
    });

    it('updates only the given fields and always updatedAt, never createdAt', async () => {
      const owner = await harness.newTenant();
      const note = await create(owner, draft());
      expect(await repository.update(owner, note.id, { title: 'Renamed', updatedAt: at(5) })).toEqual({ ...note, title: 'Renamed', updatedAt: at(5) });
      expect(await repository.update(owner, note.id, { content: '', updatedAt: at(6) })).toEqual({ ...note, title: 'Renamed', content: '', updatedAt: at(6) });
      expect(await repository.update(owner, note.id, { updatedAt: at(7) })).toMatchObject({ title: 'Renamed', content: '', createdAt: at(0), updatedAt: at(7) });
    });

    it('creates within a limit: below it, never at it, -1 for none, counting the whole organization', async () => {
      const alice = await harness.newTenant();
      const bob = { organizationId: alice.organizationId, userId: await harness.newUser(alice.organizationId) };
      expect(await repository.createWithinLimit(alice, draft(), 0)).toBeNull();
      const first = await repository.createWithinLimit(alice, draft({ title: 'first' }), 2);
      expect(first).toMatchObject({ ...alice, title: 'first', content: 'milk', createdAt: at(0), updatedAt: at(0) });
      expect(await repository.findById(alice, first!.id)).toEqual(first);
      expect(await repository.createWithinLimit(bob, draft(), 2)).not.toBeNull();
      expect(await repository.createWithinLimit(alice, draft(), 2)).toBeNull();
      expect(await repository.countByOrganization(alice.organizationId)).toBe(2);
      expect(await repository.createWithinLimit(alice, draft(), -1)).not.toBeNull();
      await repository.delete(alice, first!.id);
      expect(await repository.createWithinLimit(alice, draft(), 3)).not.toBeNull();
      expect(await repository.countByOrganization(alice.organizationId)).toBe(3);
    });

    it('creates within a limit atomically: with one slot left, one of many concurrent calls succeeds', async () => {
      const owner = await harness.newTenant();
      for (let i = 0; i < 3; i += 1) await create(owner, draft());
      const results = await Promise.all(Array.from({ length: 12 }, () => repository.createWithinLimit(owner, draft(), 4)));
      expect(results.filter((note) => note !== null)).toHaveLength(1);
      expect(await repository.countByOrganization(owner.organizationId)).toBe(4);
    });

    it('deletes once', async () => {
      const owner = await harness.newTenant();
      const note = await create(owner, draft());
      expect(await repository.delete(owner, note.id)).toBe(true);
      expect(await repository.delete(owner, note.id)).toBe(false);
      expect(await repository.findById(owner, note.id)).toBeNull();
    });

    it("counts every note of the organization, whoever wrote it, and only that organization's", async () => {
      const alice = await harness.newTenant();
      const bob = { organizationId: alice.organizationId, userId: await harness.newUser(alice.organizationId) };
      const stranger = await harness.newTenant();
      expect(await repository.countByOrganization(alice.organizationId)).toBe(0);
      await create(alice, draft());
      await create(bob, draft());
      const last = await create(bob, draft());
      await create(stranger, draft());
      expect(await repository.countByOrganization(alice.organizationId)).toBe(3);
      await repository.delete(bob, last.id);
      expect(await repository.countByOrganization(alice.organizationId)).toBe(2);
    });

    it("deletes a user's notes with the user, and an organization's with the organization", async () => {
      const alice = await harness.newTenant();
      const bob = { organizationId: alice.organizationId, userId: await harness.newUser(alice.organizationId) };
      const stranger = await harness.newTenant();
      await create(alice, draft());
      const bobs = await create(bob, draft());
      await create(stranger, draft());
      await harness.deleteUser(alice.userId);
      expect(await repository.countByOrganization(alice.organizationId)).toBe(1);
      expect(await repository.findById(bob, bobs.id)).toEqual(bobs);
      await harness.deleteOrganization(alice.organizationId);
      expect(await repository.countByOrganization(alice.organizationId)).toBe(0);
      expect(await repository.countByOrganization(stranger.organizationId)).toBe(1);
    });
  });
}
