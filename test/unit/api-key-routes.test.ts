import { describe, expect, it } from 'vitest';
import { offlineRoutes } from '../client/openapi-document';

/**
 * Which routes an organization API key reaches, walked over every route the server mounts: a
 * route about one's own user, a key-management route or a sys_admin route never takes a key, and
 * every other authenticated route says what it does (the type makes `apiKeys` required; this
 * pins down the answers).
 */
const OWN_USER_PATHS = [/^\/users\/me$/, /^\/password\//, /^\/sessions/, /^\/auth\//, /^\/passkeys/, /^\/notes/, /^\/api-keys/];

describe('routes and API keys', () => {
  const routes = offlineRoutes();

  it('every authenticated route declares whether keys may call it; public ones do not', () => {
    for (const route of routes) {
      if (route.access === 'public') expect(route.apiKeys, route.operationId).toBeUndefined();
      else expect(['accepted', 'refused'], route.operationId).toContain(route.apiKeys);
    }
  });

  it("refuses keys on routes about one's own user, key management and every sys_admin route", () => {
    for (const route of routes.filter((candidate) => candidate.access !== 'public')) {
      const own = OWN_USER_PATHS.some((pattern) => pattern.test(route.path));
      if (own || route.access === 'sys_admin') expect(route.apiKeys, `${route.operationId} ${route.path}`).toBe('refused');
    }
  });

  it("accepts keys on the organization's routes", () => {
    const accepted = routes.filter((route) => route.apiKeys === 'accepted').map((route) => route.operationId);
    expect(accepted).toEqual(
      expect.arrayContaining(['listProjects', 'createProject', 'listMembers', 'updateMemberRole', 'createInvitation', 'listInvitations', 'revokeInvitation', 'getCurrentPlan', 'getUsageSummary', 'getOrganizationSettings', 'createCheckoutSession']),
    );
  });
});
