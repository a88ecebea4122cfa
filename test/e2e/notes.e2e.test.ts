import { describe, expect, it } from 'vitest';
import { apiSuite } from '../support/api-suite';
import { expectApiError } from '../support/http-assertions';

/** The notes API end to end, through the client generated from the OpenAPI description. */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('notes over HTTP', () => {
  const { as, clientFor } = apiSuite();

  it('creates, reads, lists, updates and deletes a note', async () => {
    const { api } = await as('member');
    const created = await api.POST('/notes', { body: { title: '  Groceries  ' } });
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual({ id: expect.any(Number), title: 'Groceries', content: '', created_at: expect.stringMatching(ISO), updated_at: created.data!.created_at });
    const path = { note_id: created.data!.id };
    expect((await api.GET('/notes/{note_id}', { params: { path } })).data).toEqual(created.data);
    expect((await api.GET('/notes')).data).toEqual([created.data]);
    const updated = await api.PUT('/notes/{note_id}', { params: { path }, body: { content: 'milk', title: null } });
    expect(updated.data).toMatchObject({ title: 'Groceries', content: 'milk', created_at: created.data!.created_at });
    const deleted = await api.DELETE('/notes/{note_id}', { params: { path } });
    expect(deleted.response.status).toBe(204);
    expect(expectApiError(await api.GET('/notes/{note_id}', { params: { path } }), 404, 'RESOURCE_NOT_FOUND')).toEqual({ resource: 'note', resource_id: path.note_id });
    expectApiError(await api.DELETE('/notes/{note_id}', { params: { path } }), 404, 'RESOURCE_NOT_FOUND');
  });

  it("hides a colleague's and another organization's notes behind 404", async () => {
    const alice = await as('member');
    const bob = await as('org_admin', alice.organizationId);
    const stranger = await as('member');
    const note = (await alice.api.POST('/notes', { body: { title: 'private' } })).data!;
    for (const other of [bob, stranger]) {
      const path = { note_id: note.id };
      expect(expectApiError(await other.api.GET('/notes/{note_id}', { params: { path } }), 404, 'RESOURCE_NOT_FOUND')).toEqual({ resource: 'note', resource_id: note.id });
      expectApiError(await other.api.PUT('/notes/{note_id}', { params: { path }, body: { title: 'x' } }), 404, 'RESOURCE_NOT_FOUND');
      expectApiError(await other.api.DELETE('/notes/{note_id}', { params: { path } }), 404, 'RESOURCE_NOT_FOUND');
      expect((await other.api.GET('/notes')).data).toEqual([]);
    }
  });

  it('pages newest first by following Link, as projects do', async () => {
    const { api } = await as('member');
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) ids.push((await api.POST('/notes', { body: { title: `n${i}` } })).data!.id);
    const seen: number[] = [];
    let page = await api.GET('/notes', { params: { query: { limit: 2 } } });
    for (;;) {
      seen.push(...page.data!.map((n) => n.id));
      const link = page.response.headers.get('link');
      if (!link) break;
      const next = new URL(/^<([^>]+)>; rel="next"$/.exec(link)![1]!);
      expect(next.pathname).toBe('/notes');
      page = await api.GET('/notes', { params: { query: { limit: Number(next.searchParams.get('limit')), cursor: next.searchParams.get('cursor')! } } });
    }
    expect(seen).toEqual([...ids].reverse());
  });

  it('answers 422 for bad input, naming the field', async () => {
    const { api } = await as('member');
    const cases: Array<[unknown, string]> = [
      [{}, 'body.title'],
      [{ title: '   ' }, 'body.title'],
      [{ title: 'x'.repeat(201) }, 'body.title'],
      [{ title: 'ok', content: 'x'.repeat(100_001) }, 'body.content'],
      [{ title: 'ok', content: 42 }, 'body.content'],
    ];
    for (const [body, field] of cases) expect(expectApiError(await api.POST('/notes', { body: body as never }), 422, 'VALIDATION_ERROR')).toHaveProperty([field]);
    for (const id of ['abc', '0', '2147483648']) {
      expect(expectApiError(await api.GET('/notes/{note_id}', { params: { path: { note_id: id as never } } }), 422, 'VALIDATION_ERROR')).toHaveProperty(['path.note_id']);
    }
    expect(expectApiError(await api.GET('/notes', { params: { query: { cursor: 'nope' } } }), 422, 'VALIDATION_ERROR')).toEqual({ 'query.cursor': 'Invalid cursor' });
  });

  it('refuses readonly callers every note route, and anonymous ones with 401', async () => {
    const { api } = await as('readonly');
    expectApiError(await api.GET('/notes'), 403, 'ACCESS_DENIED');
    expectApiError(await api.POST('/notes', { body: { title: 'x' } }), 403, 'ACCESS_DENIED');
    expectApiError(await clientFor().GET('/notes'), 401, 'UNAUTHORIZED');
  });

  it("refuses the note past the Free plan's 10 with QUOTA_EXCEEDED, and accepts it again after a delete", async () => {
    const alice = await as('member');
    const bob = await as('member', alice.organizationId);
    const notes = [];
    for (let i = 0; i < 10; i += 1) notes.push((await (i % 2 ? bob : alice).api.POST('/notes', { body: { title: `n${i}` } })).data!);
    expect(expectApiError(await alice.api.POST('/notes', { body: { title: 'one too many' } }), 403, 'QUOTA_EXCEEDED')).toEqual({ feature_key: 'max_notes', limit: 10 });
    expect((await alice.api.GET('/plans/current')).data!.usage.max_notes).toEqual({ kind: 'limit', limit: 10, used: 10 });
    await bob.api.DELETE('/notes/{note_id}', { params: { path: { note_id: notes[1]!.id } } });
    expect((await alice.api.POST('/notes', { body: { title: 'fits again' } })).response.status).toBe(201);
  });

  it('with one slot left, concurrent creates give exactly one 201; the rest 403 QUOTA_EXCEEDED', async () => {
    const { api } = await as('member');
    for (let i = 0; i < 9; i += 1) await api.POST('/notes', { body: { title: `n${i}` } });
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => api.POST('/notes', { body: { title: `race ${i}` } })));
    expect(results.map((r) => r.response.status).sort()).toEqual([201, 403, 403, 403, 403, 403, 403, 403]);
    expect((await api.GET('/notes')).data).toHaveLength(10);
  });

  it("deletes a user's notes with the member, and the slot comes back", async () => {
    const admin = await as('org_admin');
    const member = await as('member', admin.organizationId);
    await member.api.POST('/notes', { body: { title: 'mine' } });
    expect((await admin.api.GET('/plans/current')).data!.usage.max_notes.used).toBe(1);
    expect((await admin.api.DELETE('/members/{user_id}', { params: { path: { user_id: member.userId } } })).response.status).toBe(204);
    expect((await admin.api.GET('/plans/current')).data!.usage.max_notes.used).toBe(0);
  });
});
