import * as v from 'valibot';
import { listBody } from '../list-response';
import { NEXT_LINK_HEADER } from '../paging';
import { defineRoute, type AnyRoute } from '../route';
import { ListOrganizationsQuery, CreateOrganizationRequest, OrganizationIdParams, OrganizationResponse } from '../schemas/organization.schemas';
import type { Organization } from '../../../core/accounts/user';
import type { CreateOrganization } from '../../../core/organizations/create-organization.use-case';
import type { ListOrganizations } from '../../../core/organizations/list-organizations.use-case';
import type { SuspendOrganization } from '../../../core/organizations/suspend-organization.use-case';
import type { ActivateOrganization } from '../../../core/organizations/activate-organization.use-case';
import { invitationRoutes, type InvitationUseCases } from './invitations.routes';
import { memberRoutes, type MemberUseCases } from './members.routes';
import type { SettingsUseCases } from './settings.routes';

export interface OrganizationUseCases extends MemberUseCases, InvitationUseCases, SettingsUseCases {
  createOrganization: CreateOrganization;
  listOrganizations: ListOrganizations;
  suspendOrganization: SuspendOrganization;
  activateOrganization: ActivateOrganization;
}

const toOrganization = (o: Organization): v.InferOutput<typeof OrganizationResponse> => ({
  id: o.id,
  name: o.name,
  status: o.status,
  created_at: o.createdAt.toISOString(),
});

/** Organizations, members and invitations. Every id and scope comes from the session, never the request. */
export function organizationRoutes(useCases: OrganizationUseCases, options: { baseApiUrl: string }): AnyRoute[] {
  const statusRoute = (action: 'suspend' | 'activate') =>
    defineRoute({
      method: 'post',
      path: `/organizations/{organization_id}/${action}`,
      tag: 'Organizations',
      operationId: `${action}Organization`,
      summary: action === 'suspend' ? 'Suspend an organization: its sessions and logins are refused' : 'Activate a suspended organization',
      description:
        action === 'suspend'
          ? "Its users' sessions stop working at once and its users cannot log in (401) until it is activated again."
          : "Lets a suspended organization's users log in again; their sessions ended at suspension.",
      access: 'sys_admin',
      apiKeys: 'refused',
      params: OrganizationIdParams,
      responses: { 200: { description: 'The organization', schema: OrganizationResponse } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params }) => {
        const useCase = action === 'suspend' ? useCases.suspendOrganization : useCases.activateOrganization;
        return { status: 200, body: toOrganization(await useCase.execute(caller, { organizationId: params.organization_id })) };
      },
    });
  return [
    defineRoute({
      method: 'post',
      path: '/organizations',
      tag: 'Organizations',
      operationId: 'createOrganization',
      summary: 'Create an organization and invite admin_email as its org_admin',
      description: "Creates an active organization and invites `admin_email` as its `org_admin`: the invitation email carries a 7-day link whose token `POST /invitations/accept` takes. 409 `EMAIL_ALREADY_EXISTS` when that email already has an account. `Location` names the new organization.",
      access: 'sys_admin',
      apiKeys: 'refused',
      body: CreateOrganizationRequest,
      responses: {
        201: { description: 'The new organization', schema: OrganizationResponse, headers: { Location: '`/organizations/{organization_id}` of the new organization' } },
      },
      errors: ['EMAIL_ALREADY_EXISTS'],
      handler: async ({ caller, body, ctx }) => {
        const { organization } = await useCases.createOrganization.execute(caller, { name: body.name, adminEmail: body.admin_email });
        ctx.set('Location', `/organizations/${organization.id}`);
        return { status: 201, body: toOrganization(organization) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/organizations',
      tag: 'Organizations',
      operationId: 'listOrganizations',
      summary: 'List every organization, oldest first',
      description: "Every organization of the deployment, oldest first, with its status.",
      access: 'sys_admin',
      apiKeys: 'refused',
      query: ListOrganizationsQuery,
      responses: {
        200: { description: 'A page of organizations; all of them without `limit`', schema: v.array(OrganizationResponse), headers: NEXT_LINK_HEADER },
      },
      handler: async ({ caller, query, ctx }) => ({
        status: 200,
        body: await listBody(ctx, query, { page: (request) => useCases.listOrganizations.execute(caller, request), toResponse: toOrganization }, { baseApiUrl: options.baseApiUrl, path: '/organizations' }),
      }),
    }),
    statusRoute('suspend'),
    statusRoute('activate'),
    ...memberRoutes(useCases, options),
    ...invitationRoutes(useCases, options),
  ];
}
