import * as v from 'valibot';
import { listBody } from '../list-response';
import { NEXT_LINK_HEADER } from '../paging';
import { defineRoute, type AnyRoute } from '../route';
import { ListMembersQuery, MemberResponse, UpdateMemberRoleRequest, UserIdParams } from '../schemas/organization.schemas';
import { roleView } from '../../../core/access/role';
import type { User } from '../../../core/accounts/user';
import type { ChangeMemberRole } from '../../../core/organizations/change-member-role.use-case';
import type { ListMembers } from '../../../core/organizations/list-members.use-case';
import type { RemoveMember } from '../../../core/organizations/remove-member.use-case';
import type { ActivateMember } from '../../../core/organizations/activate-member.use-case';
import type { SuspendMember } from '../../../core/organizations/suspend-member.use-case';

export interface MemberUseCases {
  listMembers: ListMembers;
  changeMemberRole: ChangeMemberRole;
  removeMember: RemoveMember;
  suspendMember: SuspendMember;
  activateMember: ActivateMember;
}

const toMember = (u: User): v.InferOutput<typeof MemberResponse> => ({
  user_id: u.id,
  email: u.email,
  first_name: u.firstName,
  last_name: u.lastName,
  role: roleView(u.role),
  status: u.status,
  created_at: u.createdAt.toISOString(),
});

/** Members of the caller's organization: the organization always comes from the session. */
export function memberRoutes(useCases: MemberUseCases, options: { baseApiUrl: string }): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/members',
      tag: 'Members',
      operationId: 'listMembers',
      summary: "List the members of the caller's organization",
      description: "Every user of the caller's organization with their role, in joining order.",
      access: 'org_admin',
      apiKeys: 'accepted',
      query: ListMembersQuery,
      responses: { 200: { description: 'A page of members; all of them without `limit`', schema: v.array(MemberResponse), headers: NEXT_LINK_HEADER } },
      handler: async ({ caller, query, ctx }) => ({
        status: 200,
        body: await listBody(ctx, query, { page: (request) => useCases.listMembers.execute(caller, request), toResponse: toMember }, { baseApiUrl: options.baseApiUrl, path: '/members' }),
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/members/{user_id}',
      tag: 'Members',
      operationId: 'updateMemberRole',
      summary: "Change a member's role (never above the caller's, never leaving no org_admin)",
      description: "Sets a member's role by its name. A caller cannot grant a role above their own (403 `ACCESS_DENIED`) nor demote the last `org_admin` (409 `LAST_ORG_ADMIN`).",
      access: 'org_admin',
      apiKeys: 'accepted',
      params: UserIdParams,
      body: UpdateMemberRoleRequest,
      responses: { 200: { description: 'The member', schema: MemberResponse } },
      errors: ['RESOURCE_NOT_FOUND', 'LAST_ORG_ADMIN'],
      handler: async ({ caller, params, body }) => ({
        status: 200,
        body: toMember(await useCases.changeMemberRole.execute(caller, { userId: params.user_id, role: body.role })),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/members/{user_id}',
      tag: 'Members',
      operationId: 'removeMember',
      summary: 'Remove a member: deletes the user, their sessions and their projects',
      description: "Deletes the user, their sessions and their projects. Not oneself, and not the last `org_admin` (409 `LAST_ORG_ADMIN`).",
      access: 'org_admin',
      apiKeys: 'accepted',
      params: UserIdParams,
      responses: { 204: { description: 'Removed' } },
      errors: ['RESOURCE_NOT_FOUND', 'LAST_ORG_ADMIN'],
      handler: async ({ caller, params }) => {
        await useCases.removeMember.execute(caller, { userId: params.user_id });
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/members/{user_id}/suspend',
      tag: 'Members',
      operationId: 'suspendMember',
      summary: 'Suspend a member: their sessions end and they cannot log in (not oneself, not the last active org_admin)',
      description: "The member's sessions end at once and they cannot log in until activated. Not oneself, and not the last active `org_admin` (409 `LAST_ORG_ADMIN`).",
      access: 'org_admin',
      apiKeys: 'accepted',
      params: UserIdParams,
      responses: { 200: { description: 'The member', schema: MemberResponse } },
      errors: ['RESOURCE_NOT_FOUND', 'LAST_ORG_ADMIN'],
      handler: async ({ caller, params }) => ({
        status: 200,
        body: toMember(await useCases.suspendMember.execute(caller, { userId: params.user_id })),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/members/{user_id}/activate',
      tag: 'Members',
      operationId: 'activateMember',
      summary: 'Let a suspended member log in again',
      description: "Lets a suspended member log in again.",
      access: 'org_admin',
      apiKeys: 'accepted',
      params: UserIdParams,
      responses: { 200: { description: 'The member', schema: MemberResponse } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params }) => ({
        status: 200,
        body: toMember(await useCases.activateMember.execute(caller, { userId: params.user_id })),
      }),
    }),
  ];
}
