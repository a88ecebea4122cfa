import * as v from 'valibot';
import { listBody } from '../list-response';
import { NEXT_LINK_HEADER } from '../paging';
import { defineRoute, NEW_MEMBER_LOCATION, type AnyRoute } from '../route';
import {
  AcceptedInvitationResponse,
  AcceptInvitationRequest,
  CreateInvitationRequest,
  InvitationIdParams,
  InvitationResponse,
  ListInvitationsQuery,
} from '../schemas/organization.schemas';
import type { Invitation } from '../../../core/organizations/invitation';
import { sessionOrigin } from '../../../core/accounts/session-issuer';
import type { AcceptInvitation } from '../../../core/organizations/accept-invitation.use-case';
import type { CreateInvitation } from '../../../core/organizations/create-invitation.use-case';
import type { ListInvitations } from '../../../core/organizations/list-invitations.use-case';
import type { RevokeInvitation } from '../../../core/organizations/revoke-invitation.use-case';

export interface InvitationUseCases {
  createInvitation: CreateInvitation;
  listInvitations: ListInvitations;
  revokeInvitation: RevokeInvitation;
  acceptInvitation: AcceptInvitation;
}

/** Never the token, nor its hash: the token exists only in the emailed link. */
const toInvitation = (i: Invitation): v.InferOutput<typeof InvitationResponse> => ({
  id: i.id,
  email: i.email,
  role: i.role,
  organization_id: i.organizationId,
  expires_at: i.expiresAt.toISOString(),
  created_at: i.createdAt.toISOString(),
});

/** Invitations into the caller's organization, and the public accept. */
export function invitationRoutes(useCases: InvitationUseCases, options: { baseApiUrl: string }): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/invitations',
      tag: 'Invitations',
      operationId: 'createInvitation',
      summary: "Invite an email into the caller's organization; emails a 7-day single-use link",
      description: "Emails a single-use link, valid 7 days, to join the caller's organization with `role`, which may not be above the caller's own (a member's, or an API key's). The answer never holds the token. 409 `EMAIL_ALREADY_EXISTS` when the email already has an account. `Location` names the new invitation. An invitation sent with an API key can be accepted only while that key is neither revoked nor expired.",
      access: 'org_admin',
      apiKeys: 'accepted',
      body: CreateInvitationRequest,
      responses: {
        201: { description: 'The invitation (without its token)', schema: InvitationResponse, headers: { Location: '`/invitations/{invitation_id}` of the new invitation' } },
      },
      errors: ['EMAIL_ALREADY_EXISTS'],
      handler: async ({ caller, body, ctx }) => {
        const invitation = await useCases.createInvitation.execute(caller, { email: body.email, role: body.role });
        ctx.set('Location', `/invitations/${invitation.id}`);
        return { status: 201, body: toInvitation(invitation) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/invitations',
      tag: 'Invitations',
      operationId: 'listInvitations',
      summary: "List the pending invitations of the caller's organization",
      description: "Invitations that can be accepted, oldest first: neither accepted, revoked nor expired, and still vouched for by their inviter (one whose inviter was removed, suspended or demoted below the invited role, or whose inviting API key was revoked or has expired, is not listed, since accepting it is refused).",
      access: 'org_admin',
      apiKeys: 'accepted',
      query: ListInvitationsQuery,
      responses: {
        200: { description: 'A page of pending invitations; all of them without `limit`', schema: v.array(InvitationResponse), headers: NEXT_LINK_HEADER },
      },
      handler: async ({ caller, query, ctx }) => ({
        status: 200,
        body: await listBody(ctx, query, { page: (request) => useCases.listInvitations.execute(caller, request), toResponse: toInvitation }, { baseApiUrl: options.baseApiUrl, path: '/invitations' }),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/invitations/{invitation_id}',
      tag: 'Invitations',
      operationId: 'revokeInvitation',
      summary: 'Revoke a pending invitation; its link stops working',
      description: "The invitation's link stops working at once.",
      access: 'org_admin',
      apiKeys: 'accepted',
      params: InvitationIdParams,
      responses: { 204: { description: 'Revoked' } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params }) => {
        await useCases.revokeInvitation.execute(caller, { invitationId: params.invitation_id });
        return { status: 204 };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/invitations/accept',
      tag: 'Invitations',
      operationId: 'acceptInvitation',
      summary: 'Accept an invitation: creates a verified user with the invited role',
      description: "Public: the `token` from the invitation link proves the email. Creates a verified user with the invited role in the inviting organization; then log in with `POST /auth/login`.",
      access: 'public',
      body: AcceptInvitationRequest,
      responses: { 201: { description: 'The new user', schema: AcceptedInvitationResponse, headers: { Location: NEW_MEMBER_LOCATION } } },
      errors: ['INVALID_TOKEN', 'EMAIL_ALREADY_EXISTS'],
      handler: async ({ body, ctx, clientIp }) => {
        const { userId } = await useCases.acceptInvitation.execute({
          token: body.token,
          password: body.password,
          firstName: body.first_name,
          lastName: body.last_name,
          origin: sessionOrigin(ctx.get('User-Agent'), clientIp),
        });
        ctx.set('Location', `/members/${userId}`);
        return { status: 201, body: { user_id: userId } };
      },
    }),
  ];
}
