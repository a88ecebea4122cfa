import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../app/client/index';
import { STREAM_BATCH } from '../../app/http/list-response';
import { apiSuite } from '../support/api-suite';
import { expectErrorResponse } from '../support/http-assertions';
import { requirePostgres } from '../support/postgres';

/**
 * Every list pages the same way (`limit`, opaque `cursor`, `Link` rel="next"), `GET /projects`
 * without `limit` streams every row, a 201 says where the new resource is, and a body that is
 * not JSON is a 415. Through the generated client where a client would use one.
 */
const postgres = await requirePostgres();

describe.skipIf(!postgres)('lists and HTTP conventions', () => {
  const suite = apiSuite();
  const { as } = suite;

  /** Follows `Link: <…>; rel="next"` from `first` until it is absent; returns the ids in order and the page count. */
  async function walk(api: ApiClient, path: '/members' | '/invitations' | '/organizations', limit: number) {
    const ids: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    for (; pages < 100; ) {
      const result = await api.GET(path, { params: { query: { limit, ...(cursor ? { cursor } : {}) } } });
      expect(result.response.status).toBe(200);
      pages += 1;
      const items = result.data as Array<{ id?: number; user_id?: number }>;
      expect(items.length).toBeLessThanOrEqual(limit);
      ids.push(...items.map((item) => item.id ?? item.user_id!));
      const link = result.response.headers.get('link');
      if (!link) break;
      const next = new URL(/^<([^>]+)>; rel="next"$/.exec(link)![1]!);
      expect(`${next.origin}${next.pathname}`).toBe(`${suite.app.config.baseApiUrl}${path}`);
      expect(next.searchParams.get('limit')).toBe(String(limit));
      cursor = next.searchParams.get('cursor')!;
    }
    return { ids, pages };
  }

  it('pages /members, /invitations and /organizations with limit, cursor and Link, and lists them whole without limit', async () => {
    const admin = await as('org_admin');
    for (let i = 0; i < 4; i += 1) await suite.sessions.loginAs('member', admin.organizationId);
    for (let i = 0; i < 5; i += 1) {
      const created = await admin.api.POST('/invitations', { body: { email: `invitee${i}@example.com`, role: 'member' } });
      expect(created.response.status).toBe(201);
    }
    const root = await as('sys_admin');
    for (let i = 0; i < 3; i += 1) await suite.sessions.newOrganization(`Org ${i}`);

    for (const [api, path] of [
      [admin.api, '/members'],
      [admin.api, '/invitations'],
      [root.api, '/organizations'],
    ] as const) {
      const all = await api.GET(path);
      expect(all.response.headers.get('link'), path).toBeNull();
      const allIds = (all.data as Array<{ id?: number; user_id?: number }>).map((item) => item.id ?? item.user_id!);
      expect(allIds.length, path).toBeGreaterThanOrEqual(5);
      const walked = await walk(api, path, 2);
      expect(walked.ids, path).toEqual(allIds);
      expect(walked.pages, path).toBe(Math.ceil(allIds.length / 2)); // the extra row read tells the last page without a further request
    }

    const bad = await admin.api.GET('/members', { params: { query: { limit: 2, cursor: 'bm90IGEgY3Vyc29y' } } });
    expect(bad.response.status).toBe(422);
    expect(bad.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { 'query.cursor': 'Invalid cursor' } });
    const tooMany = await admin.api.GET('/invitations', { params: { query: { limit: 1001 } } });
    expect(tooMany.response.status).toBe(422);
  });

  it('takes a cursor naming any id up to 2^53 - 1 on every paged list, int4 columns too, and refuses 2^53 with 422', async () => {
    const admin = await as('org_admin');
    const root = await as('sys_admin');
    expect((await admin.api.POST('/projects', { body: { name: 'Below every cursor' } })).response.status).toBe(201);
    expect((await admin.api.POST('/notes', { body: { title: 'Below every cursor' } })).response.status).toBe(201);
    expect((await admin.api.POST('/invitations', { body: { email: 'paged@example.com', role: 'member' } })).response.status).toBe(201);
    expect((await admin.api.POST('/api-keys', { body: { name: 'Paged', role: 'readonly' } })).response.status).toBe(201);
    const get = (caller: { token: string }, path: string, cursor: string) =>
      suite.app.request(`${path}?limit=5&cursor=${cursor}`, { headers: { Cookie: `${suite.app.config.sessionCookieName}=${caller.token}` } });
    // Newest-first lists hold rows before 2100; ascending ones hold rows after 2000: each page must find them.
    const lists = [
      [admin, '/projects', '2100'],
      [admin, '/notes', '2100'],
      [admin, '/usage/history', '2100'],
      [admin, '/api-keys', '2100'],
      [admin, '/audit-events', '2100'],
      [root, `/organizations/${admin.organizationId}/audit-events`, '2100'],
      [admin, '/members', '2000'],
      [admin, '/invitations', '2000'],
      [root, '/organizations', '2000'],
    ] as const;
    for (const [caller, path, year] of lists) {
      const at = (id: string) => Buffer.from(`${year}-01-01T00:00:00.000Z|${id}`).toString('base64url');
      for (const id of ['2147483647', '2147483648', '9007199254740991']) {
        const res = await get(caller, path, at(id));
        expect(res.status, `${path} after id ${id}`).toBe(200);
        const items = (await res.json()) as unknown[];
        if (path !== '/usage/history') expect(items.length, `${path} after id ${id}`).toBeGreaterThan(0);
      }
      const refused = await expectErrorResponse(await get(caller, path, at('9007199254740992')), 422, 'VALIDATION_ERROR');
      expect(refused.details, path).toEqual({ 'query.cursor': 'Invalid cursor' });
    }
  });

  it(`streams every project without limit, ${STREAM_BATCH} rows per query, newest first`, async () => {
    const { api, organizationId } = await as('readonly');
    const total = STREAM_BATCH * 2 + 37;
    const base = Date.UTC(2026, 0, 1);
    const rows = Array.from({ length: total }, (_, i) => ({
      organization_id: organizationId,
      user_id: null as unknown as number,
      name: `bulk ${i}`,
      description: 'x'.repeat(1_000),
      created_at: new Date(base + i * 1_000),
      updated_at: new Date(base + i * 1_000),
    }));
    const owner = await suite.sessions.loginAs('member', organizationId);
    for (const row of rows) row.user_id = owner.userId;
    for (let i = 0; i < rows.length; i += 500) await suite.app.db!.database.db.insertInto('project').values(rows.slice(i, i + 500)).execute();

    const res = await suite.app.request('/projects', { headers: { Cookie: `${suite.app.config.sessionCookieName}=${(await suite.sessions.loginAs('readonly', organizationId)).token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-length')).toBeNull(); // streamed, chunk by chunk
    const body = (await res.json()) as Array<{ name: string }>;
    expect(body).toHaveLength(total);
    expect(body[0]!.name).toBe(`bulk ${total - 1}`);
    expect(body.at(-1)!.name).toBe('bulk 0');

    const viaClient = await api.GET('/projects');
    expect(viaClient.data).toHaveLength(total);
  });

  it('answers a 201 with the new resource in Location', async () => {
    const admin = await as('org_admin');
    const project = await admin.api.POST('/projects', { body: { name: 'Located' } });
    expect(project.response.headers.get('location')).toBe(`/projects/${project.data!.id}`);
    const fetched = await admin.api.GET('/projects/{project_id}', { params: { path: { project_id: project.data!.id } } });
    expect(fetched.data!.name).toBe('Located');

    const invitation = await admin.api.POST('/invitations', { body: { email: 'located@example.com', role: 'readonly' } });
    expect(invitation.response.headers.get('location')).toBe(`/invitations/${invitation.data!.id}`);
    const root = await as('sys_admin');
    const organization = await root.api.POST('/organizations', { body: { name: 'Located Ltd', admin_email: 'boss@located.example' } });
    expect(organization.response.headers.get('location')).toBe(`/organizations/${organization.data!.id}`);
  });

  it('refuses a form or text body on a JSON route with 415 UNSUPPORTED_MEDIA_TYPE, before reading it', async () => {
    const { token } = await as('member');
    const cookie = `${suite.app.config.sessionCookieName}=${token}`;
    for (const [type, body] of [
      ['application/x-www-form-urlencoded', 'name=Form'],
      ['text/plain', '{"name": "Text"}'],
      ['multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nM\r\n--x--\r\n'],
    ] as const) {
      const res = await suite.app.request('/projects', { method: 'POST', headers: { Cookie: cookie, 'Content-Type': type }, body });
      await expectErrorResponse(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    // application/*+json is JSON.
    const vendor = await suite.app.request('/projects', {
      method: 'POST',
      headers: { Cookie: cookie, 'Content-Type': 'application/vnd.api+json' },
      body: '{"name": "Vendor"}',
    });
    expect(vendor.status).toBe(201);
  });
});
