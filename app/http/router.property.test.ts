import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import * as v from 'valibot';
import { defineRoute, type AnyRoute } from './route';
import { serveRoutes } from '../../test/support/router-server';
import { ROLES, satisfies, isRoleName, type RoleName } from '../../core/access/role';
import { DomainError } from '../../core/shared/domain-error';

const ACCESS = ['public', ...ROLES] as const;
type Access = (typeof ACCESS)[number];

/** One route per access level; the test authenticator takes the caller's role from a header. */
function routesFor(access: readonly Access[]): AnyRoute[] {
  return access.map((level, index) =>
    defineRoute({
      method: 'get',
      path: `/r${index}`,
      tag: 'Test',
      operationId: `r${index}`,
      summary: level,
      description: `A route for ${level}`,
      access: level as 'public',
      query: v.object({}),
      responses: { 200: { description: 'ok' } },
      handler: async () => ({ status: 200, body: { ok: true } }),
    }),
  );
}

describe('the role guard (property)', () => {
  let served: Awaited<ReturnType<typeof serveRoutes>>;
  let base: string;
  const declared = fc.sample(fc.array(fc.constantFrom(...ACCESS), { minLength: 5, maxLength: 25 }), { numRuns: 1, seed: 7 })[0]!;
  const all = [...ACCESS, ...declared];

  beforeAll(async () => {
    served = await serveRoutes(routesFor(all), async (ctx) => {
        const role = ctx.get('X-Test-Role');
        if (!isRoleName(role)) throw new DomainError('UNAUTHORIZED', 'Authentication required');
        return { kind: 'user' as const, userId: 1, organizationId: 1, sessionId: 1, role, mfaSatisfied: true };
    });
    base = served.base;
  });
  afterAll(() => served.close());

  it('admits a caller iff their precedence ≥ the route minimum; public admits everyone; no session is 401', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: all.length - 1 }), fc.option(fc.constantFrom(...ROLES), { nil: undefined }), async (index, held) => {
        const response = await fetch(`${base}/r${index}`, { headers: held ? { 'X-Test-Role': held } : {} });
        const access = all[index]!;
        const expected = access === 'public' ? 200 : !held ? 401 : satisfies(held as RoleName, access) ? 200 : 403;
        expect(response.status).toBe(expected);
        if (expected === 403) expect(await response.json()).toMatchObject({ code: 'ACCESS_DENIED' });
      }),
      { numRuns: 200 },
    );
  });
});
