import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineRoute, type AnyRoute } from './route';
import { serveRoutes } from '../../test/support/router-server';
import type { Caller } from '../../core/access/caller';
import type { RoleName } from '../../core/access/role';

const route = (path: string, access: RoleName, apiKeys: 'accepted' | 'refused', method: 'get' | 'post' = 'get'): AnyRoute =>
  defineRoute({
    method,
    path,
    tag: 'Test',
    operationId: `${method}${path.slice(1)}`,
    summary: path,
    description: path,
    access,
    apiKeys,
    responses: { 200: { description: 'ok' } },
    handler: async ({ caller }) => ({ status: 200, body: { kind: caller.kind } }),
  });

/** The router's rule for keys: only routes that accept them, never a sys_admin route, and no cross-site check for a bearer request. */
describe('the router and API keys', () => {
  let served: Awaited<ReturnType<typeof serveRoutes>>;
  let base: string;

  beforeAll(async () => {
    served = await serveRoutes(
      [route('/accepted', 'member', 'accepted'), route('/refused', 'member', 'refused'), route('/system', 'sys_admin', 'accepted'), route('/change', 'member', 'accepted', 'post')],
      // The test's authentication: `Authorization: Bearer <role>` is a key of that role, anything else a member.
      async (ctx): Promise<Caller> => {
        const bearer = /^Bearer (\w+)$/.exec(ctx.get('Authorization'))?.[1] as RoleName | undefined;
        return bearer
          ? { kind: 'api_key', apiKeyId: 1, organizationId: 1, role: bearer, mfaSatisfied: true }
          : { kind: 'user', userId: 1, sessionId: 1, organizationId: 1, role: 'sys_admin', mfaSatisfied: true };
      },
    );
    base = served.base;
  });
  afterAll(() => served.close());

  const call = async (path: string, headers: Record<string, string> = {}, method = 'GET') => {
    const res = await fetch(`${base}${path}`, { method, headers });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('lets a key through where the route accepts keys, and refuses it where the route does not', async () => {
    expect(await call('/accepted', { Authorization: 'Bearer member' })).toEqual({ status: 200, body: { kind: 'api_key' } });
    expect(await call('/refused', { Authorization: 'Bearer org_admin' })).toMatchObject({ status: 403, body: { code: 'ACCESS_DENIED', details: { reason: 'api_key_not_accepted' } } });
    expect(await call('/refused')).toEqual({ status: 200, body: { kind: 'user' } });
  });

  it('never lets a key reach a sys_admin route, whatever the route or the key says', async () => {
    expect(await call('/system', { Authorization: 'Bearer sys_admin' })).toMatchObject({ status: 403, body: { details: { reason: 'api_key_not_accepted' } } });
    expect(await call('/system')).toEqual({ status: 200, body: { kind: 'user' } });
  });

  it('skips the cross-site check for a bearer request only', async () => {
    const evil = { Origin: 'https://evil.example' };
    expect((await call('/change', { ...evil, Authorization: 'Bearer member' }, 'POST')).status).toBe(200);
    expect(await call('/change', evil, 'POST')).toMatchObject({ status: 403, body: { details: { reason: 'cross_site_request' } } });
  });
});
