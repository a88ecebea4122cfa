import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../../app/client/index';
import { apiSuite } from '../support/api-suite';
import { expectApiError } from '../support/http-assertions';

/** The projects API end to end, through the client generated from the OpenAPI description. */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('projects over HTTP', () => {
  // The app on a throwaway database, and `as(role)`: a logged-in caller with the generated client.
  const suite = apiSuite();
  const { as, clientFor } = suite;

  async function createProject(api: ApiClient, name: string, description: string | null = null) {
    const { data, response } = await api.POST('/projects', { body: { name, description } });
    expect(response.status).toBe(201);
    return data!;
  }

  it('creates, reads, lists, updates and deletes a project', async () => {
    const { api } = await as('member');

    const created = await createProject(api, '  Apollo  ', 'to the moon');
    expect(Object.keys(created).sort()).toEqual(['created_at', 'description', 'id', 'name', 'updated_at']);
    expect(created).toEqual({ id: expect.any(Number), name: 'Apollo', description: 'to the moon', created_at: expect.stringMatching(ISO), updated_at: created.created_at });

    const got = await api.GET('/projects/{project_id}', { params: { path: { project_id: created.id } } });
    expect(got.response.status).toBe(200);
    expect(got.data).toEqual(created);

    const listed = await api.GET('/projects');
    expect(listed.response.status).toBe(200);
    expect(listed.data).toEqual([created]);
    expect(listed.response.headers.get('link')).toBeNull();

    const renamed = await api.PUT('/projects/{project_id}', { params: { path: { project_id: created.id } }, body: { name: 'Artemis' } });
    expect(renamed.response.status).toBe(200);
    expect(renamed.data).toMatchObject({ id: created.id, name: 'Artemis', description: 'to the moon', created_at: created.created_at });
    expect(Date.parse(renamed.data!.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));

    const deleted = await api.DELETE('/projects/{project_id}', { params: { path: { project_id: created.id } } });
    expect(deleted.response.status).toBe(204);
    expect(await deleted.response.text()).toBe('');

    const gone = await api.GET('/projects/{project_id}', { params: { path: { project_id: created.id } } });
    expect(expectApiError(gone, 404, 'RESOURCE_NOT_FOUND')).toEqual({ resource: 'project', resource_id: created.id });
    const again = await api.DELETE('/projects/{project_id}', { params: { path: { project_id: created.id } } });
    expect(expectApiError(again, 404, 'RESOURCE_NOT_FOUND')).toEqual({ resource: 'project', resource_id: created.id });
  });

  it('leaves omitted and null fields unchanged, and ignores unknown fields', async () => {
    const { api, organizationId } = await as('org_admin');
    const project = await createProject(api, 'Apollo', 'moon');
    const path = { project_id: project.id };

    const nulls = await api.PUT('/projects/{project_id}', { params: { path }, body: { name: null, description: null } });
    expect(nulls.data).toMatchObject({ name: 'Apollo', description: 'moon' });
    const empty = await api.PUT('/projects/{project_id}', { params: { path }, body: {} });
    expect(empty.data).toMatchObject({ name: 'Apollo', description: 'moon' });

    const sneaky = { description: 'mars', organization_id: organizationId + 1, user_id: 1, id: 999 };
    const updated = await api.PUT('/projects/{project_id}', { params: { path }, body: sneaky });
    expect(updated.data).toEqual({ ...project, description: 'mars', updated_at: updated.data!.updated_at });
    const created = await api.POST('/projects', { body: { name: 'x', organization_id: 1 } as { name: string } });
    expect(Object.keys(created.data!)).not.toContain('organization_id');
  });

  it("answers another organization's project with 404 on get, put and delete, and leaves it alone", async () => {
    const owner = await as('member');
    const stranger = await as('sys_admin');
    const project = await createProject(owner.api, 'secret');
    const path = { project_id: project.id };
    const details = { resource: 'project', resource_id: project.id };

    expect(expectApiError(await stranger.api.GET('/projects/{project_id}', { params: { path } }), 404, 'RESOURCE_NOT_FOUND')).toEqual(details);
    expect(
      expectApiError(await stranger.api.PUT('/projects/{project_id}', { params: { path }, body: { name: 'stolen' } }), 404, 'RESOURCE_NOT_FOUND'),
    ).toEqual(details);
    expect(expectApiError(await stranger.api.DELETE('/projects/{project_id}', { params: { path } }), 404, 'RESOURCE_NOT_FOUND')).toEqual(details);
    expect((await stranger.api.GET('/projects')).data).toEqual([]);
    expect((await owner.api.GET('/projects/{project_id}', { params: { path } })).data).toEqual(project);
  });

  it('rejects invalid bodies, ids and queries with 422 VALIDATION_ERROR', async () => {
    const { api } = await as('member');
    const project = await createProject(api, 'valid');
    const badBody = async (body: unknown) => api.POST('/projects', { body: body as { name: string } });

    expect(expectApiError(await badBody({ name: '   ' }), 422, 'VALIDATION_ERROR')).toHaveProperty(['body.name']);
    expect(expectApiError(await badBody({ name: 'x'.repeat(201) }), 422, 'VALIDATION_ERROR')).toHaveProperty(['body.name']);
    expect((await badBody({ name: 'x'.repeat(200) })).response.status).toBe(201);
    expect(expectApiError(await badBody({}), 422, 'VALIDATION_ERROR')).toHaveProperty(['body.name']);
    expect(expectApiError(await badBody({ name: 42 }), 422, 'VALIDATION_ERROR')).toHaveProperty(['body.name']);
    expect(expectApiError(await badBody({ name: 'a', description: 'd'.repeat(10_001) }), 422, 'VALIDATION_ERROR')).toHaveProperty([
      'body.description',
    ]);
    expect(expectApiError(await badBody({ name: 'a\u0000b' }), 422, 'VALIDATION_ERROR')).toHaveProperty(['body.name']);
    const update = await api.PUT('/projects/{project_id}', { params: { path: { project_id: project.id } }, body: { name: '' } });
    expect(expectApiError(update, 422, 'VALIDATION_ERROR')).toHaveProperty(['body.name']);

    for (const id of ['abc', '0', '-1', '1.5', '1e3', '2147483648', '99999999999999999999']) {
      const path = { project_id: id as unknown as number };
      expect(expectApiError(await api.GET('/projects/{project_id}', { params: { path } }), 422, 'VALIDATION_ERROR')).toHaveProperty([
        'path.project_id',
      ]);
      expect((await api.DELETE('/projects/{project_id}', { params: { path } })).response.status).toBe(422);
    }
    const largest = await api.GET('/projects/{project_id}', { params: { path: { project_id: 2_147_483_647 } } });
    expectApiError(largest, 404, 'RESOURCE_NOT_FOUND');

    for (const limit of [0, 1001]) {
      expect(expectApiError(await api.GET('/projects', { params: { query: { limit } } }), 422, 'VALIDATION_ERROR')).toHaveProperty(['query.limit']);
    }
    const cursor = await api.GET('/projects', { params: { query: { limit: 1, cursor: 'not-a-cursor' } } });
    expect(expectApiError(cursor, 422, 'VALIDATION_ERROR')).toEqual({ 'query.cursor': 'Invalid cursor' });
  });

  it('lets a readonly caller read but refuses its writes with 403 ACCESS_DENIED', async () => {
    const member = await as('member');
    const reader = await as('readonly', member.organizationId);
    const project = await createProject(member.api, 'shared');
    const path = { project_id: project.id };

    expect((await reader.api.GET('/projects')).data).toEqual([project]);
    expect((await reader.api.GET('/projects/{project_id}', { params: { path } })).data).toEqual(project);
    expectApiError(await reader.api.POST('/projects', { body: { name: 'nope' } }), 403, 'ACCESS_DENIED');
    expectApiError(await reader.api.PUT('/projects/{project_id}', { params: { path }, body: { name: 'nope' } }), 403, 'ACCESS_DENIED');
    expectApiError(await reader.api.DELETE('/projects/{project_id}', { params: { path } }), 403, 'ACCESS_DENIED');
    expect((await member.api.GET('/projects')).data).toEqual([project]);
  });

  it('answers every route with 401 UNAUTHORIZED without a valid session', async () => {
    const anonymous = clientFor();
    const forged = clientFor({ userId: 0, organizationId: 0, role: 'member', token: 'A'.repeat(43) });
    for (const api of [anonymous, forged]) {
      const path = { project_id: 1 };
      expectApiError(await api.GET('/projects'), 401, 'UNAUTHORIZED');
      expectApiError(await api.POST('/projects', { body: { name: 'x' } }), 401, 'UNAUTHORIZED');
      expectApiError(await api.GET('/projects/{project_id}', { params: { path } }), 401, 'UNAUTHORIZED');
      expectApiError(await api.PUT('/projects/{project_id}', { params: { path }, body: {} }), 401, 'UNAUTHORIZED');
      expectApiError(await api.DELETE('/projects/{project_id}', { params: { path } }), 401, 'UNAUTHORIZED');
    }
  });

  it('pages newest first with limit and a Link to the next page until nothing remains', async () => {
    const { api } = await as('member');
    const created = [];
    for (let i = 0; i < 5; i += 1) created.push(await createProject(api, `p${i}`));
    const newestFirst = [...created].reverse().map((p) => p.name);

    const all = await api.GET('/projects');
    expect(all.data!.map((p) => p.name)).toEqual(newestFirst);
    expect(all.response.headers.get('link')).toBeNull();

    const walked: string[] = [];
    let query: { limit: number; cursor?: string } = { limit: 2 };
    for (let page = 0; page < 10; page += 1) {
      const result = await api.GET('/projects', { params: { query } });
      expect(result.response.status).toBe(200);
      walked.push(...result.data!.map((p) => p.name));
      const link = result.response.headers.get('link');
      if (!link) break;
      const match = /^<([^>]+)>; rel="next"$/.exec(link);
      expect(match).not.toBeNull();
      const next = new URL(match![1]!);
      expect(`${next.origin}${next.pathname}`).toBe(`${suite.app.config.baseApiUrl}/projects`);
      expect(next.searchParams.get('limit')).toBe('2');
      query = { limit: 2, cursor: next.searchParams.get('cursor')! };
    }
    expect(walked).toEqual(newestFirst);
  });

  it("deletes an organization's and a user's projects with them", async () => {
    const database = suite.app.db!.database;
    const doomed = await as('member');
    await createProject(doomed.api, 'goes with the organization');
    await database.run('delete from organization where id = $1', [doomed.organizationId]);
    expect(await database.select('select count(*) as n from project where organization_id = $1', [doomed.organizationId])).toEqual([{ n: '0' }]);

    const leaver = await as('member');
    const colleague = await as('member', leaver.organizationId);
    await createProject(leaver.api, 'goes with the user');
    const kept = await createProject(colleague.api, 'stays');
    await database.run('delete from app_user where id = $1', [leaver.userId]);
    expect((await colleague.api.GET('/projects')).data).toEqual([kept]);
  });
});
