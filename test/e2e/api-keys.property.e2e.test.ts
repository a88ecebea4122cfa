import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createApiClient, type ApiClient } from '../../app/client/index';
import { precedenceOf, type RoleName } from '../../core/access/role';
import { apiSuite, type ApiCaller } from '../support/api-suite';

type KeyRole = 'readonly' | 'member' | 'org_admin';
const KEY_ROLES: KeyRole[] = ['readonly', 'member', 'org_admin'];

/** Properties of organization API keys over random operations, through the generated client. */
describe('organization API keys, as properties', () => {
  const suite = apiSuite();

  async function keyOf(admin: ApiCaller, role: KeyRole): Promise<ApiClient> {
    const created = await admin.api.POST('/api-keys', { body: { name: 'prop', role } });
    return createApiClient(suite.app.url, { apiKey: created.data!.key });
  }

  /** What one organization holds, as its own admin reads it. */
  async function snapshot(admin: ApiCaller) {
    const [projects, members, settings] = await Promise.all([admin.api.GET('/projects'), admin.api.GET('/members'), admin.api.GET('/settings/organization')]);
    return { projects: projects.data, members: members.data, settings: settings.data };
  }

  it("a key of organization A never reads or changes B's data, over random sequences of operations", async () => {
    const target = fc.constantFrom<'own' | 'other'>('own', 'other');
    const command = fc.oneof(
      fc.record({ op: fc.constant('listProjects' as const) }),
      fc.record({ op: fc.constant('createProject' as const), name: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== '' && !/[\u0000-\u001f\u007f]/.test(s)) }),
      fc.record({ op: fc.constantFrom('getProject' as const, 'updateProject' as const, 'deleteProject' as const), target }),
      fc.record({ op: fc.constant('listMembers' as const) }),
      fc.record({ op: fc.constantFrom('changeRole' as const, 'removeMember' as const, 'suspendMember' as const), target }),
      fc.record({ op: fc.constant('updateSettings' as const), requireMfa: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 8 }), async (commands) => {
        const adminA = await suite.as('org_admin');
        const adminB = await suite.as('org_admin');
        const memberA = await suite.as('member', adminA.organizationId);
        const memberB = await suite.as('member', adminB.organizationId);
        const projectB = (await adminB.api.POST('/projects', { body: { name: 'B secret' } })).data!.id;
        const ownProjects = new Set([(await adminA.api.POST('/projects', { body: { name: 'A' } })).data!.id]);
        const ownMembers = new Set([adminA.userId, memberA.userId]);
        const key = await keyOf(adminA, 'org_admin');
        const before = await snapshot(adminB);

        for (const c of commands) {
          const projectId = 'target' in c && c.target === 'other' ? projectB : [...ownProjects][0] ?? projectB;
          const userId = 'target' in c && c.target === 'other' ? memberB.userId : memberA.userId;
          const foreign = 'target' in c && c.target === 'other';
          let status: number;
          switch (c.op) {
            case 'listProjects': {
              const listed = await key.GET('/projects');
              expect(listed.data!.every((project) => ownProjects.has(project.id))).toBe(true);
              status = listed.response.status;
              break;
            }
            case 'createProject': {
              const created = await key.POST('/projects', { body: { name: c.name } });
              if (created.data) ownProjects.add(created.data.id);
              status = created.response.status;
              break;
            }
            case 'getProject':
              status = (await key.GET('/projects/{project_id}', { params: { path: { project_id: projectId } } })).response.status;
              break;
            case 'updateProject':
              status = (await key.PUT('/projects/{project_id}', { params: { path: { project_id: projectId } }, body: { name: 'renamed' } })).response.status;
              break;
            case 'deleteProject':
              status = (await key.DELETE('/projects/{project_id}', { params: { path: { project_id: projectId } } })).response.status;
              if (status === 204) ownProjects.delete(projectId);
              break;
            case 'listMembers': {
              const listed = await key.GET('/members');
              expect(listed.data!.every((member) => ownMembers.has(member.user_id))).toBe(true);
              status = listed.response.status;
              break;
            }
            case 'changeRole':
              status = (await key.PUT('/members/{user_id}', { params: { path: { user_id: userId } }, body: { role: 'readonly' } })).response.status;
              break;
            case 'removeMember':
              status = (await key.DELETE('/members/{user_id}', { params: { path: { user_id: userId } } })).response.status;
              if (status === 204) ownMembers.delete(userId);
              break;
            case 'suspendMember':
              status = (await key.POST('/members/{user_id}/suspend', { params: { path: { user_id: userId } } })).response.status;
              break;
            case 'updateSettings':
              status = (await key.PUT('/settings/organization', { body: { require_mfa: c.requireMfa } })).response.status;
              break;
          }
          if (foreign) expect(status, c.op).toBe(404);
          else expect(status, c.op).toBeLessThan(500);
        }
        expect(await snapshot(adminB)).toEqual(before);
      }),
      { numRuns: 15 },
    );
  });

  let invitee = 0;
  /** Operations a key may be sent, with the lowest role each accepts. */
  const OPERATIONS: Array<{ name: string; role: RoleName; call(api: ApiClient): Promise<{ response: Response }> }> = [
    { name: 'listProjects', role: 'readonly', call: (api) => api.GET('/projects') },
    { name: 'getCurrentPlan', role: 'readonly', call: (api) => api.GET('/plans/current') },
    { name: 'createProject', role: 'member', call: (api) => api.POST('/projects', { body: { name: 'p' } }) },
    { name: 'getUsageSummary', role: 'member', call: (api) => api.GET('/usage/summary') },
    { name: 'listMembers', role: 'org_admin', call: (api) => api.GET('/members') },
    { name: 'listInvitations', role: 'org_admin', call: (api) => api.GET('/invitations') },
    // A fresh address each time: the per-recipient invitation limit never answers instead of the role check.
    { name: 'createInvitation', role: 'org_admin', call: (api) => api.POST('/invitations', { body: { email: `key-invitee-${(invitee += 1)}-${process.pid}@example.test`, role: 'readonly' } }) },
    { name: 'getOrganizationSettings', role: 'org_admin', call: (api) => api.GET('/settings/organization') },
    { name: 'updateOrganizationSettings', role: 'org_admin', call: (api) => api.PUT('/settings/organization', { body: {} }) },
    { name: 'listTopUsers', role: 'org_admin', call: (api) => api.GET('/usage/top-users') },
    { name: 'listOrganizations', role: 'sys_admin', call: (api) => api.GET('/organizations') },
  ];

  it('no key ever acts above its role: refused (403) exactly when the operation needs more', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...KEY_ROLES), fc.array(fc.constantFrom(...OPERATIONS), { minLength: 1, maxLength: 5 }), async (role, operations) => {
        const admin = await suite.as('org_admin');
        const key = await keyOf(admin, role);
        for (const operation of operations) {
          const { response } = await operation.call(key);
          const allowed = precedenceOf(role) >= precedenceOf(operation.role);
          if (allowed) expect(response.status, `${role} → ${operation.name}`).toBeLessThan(400);
          else expect(response.status, `${role} → ${operation.name}`).toBe(403);
        }
      }),
      { numRuns: 25 },
    );
  });
});
