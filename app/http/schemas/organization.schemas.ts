import * as v from 'valibot';
import { email, newPassword, RoleView, roleName, token, UserIdResponse } from './account.schemas';
import { INT4_MAX, integer, integerParam } from './integer-param.schema';
import { optionalName, requiredName } from './text.schema';
import { pageQuery } from '../paging';

/** Request and response shapes of the organization, member and invitation routes. */

const organizationName = requiredName(200);

const personName = optionalName(100);

const timestamp = v.pipe(v.string(), v.isoTimestamp());

export const CreateOrganizationRequest = v.object({ name: organizationName, admin_email: email });
export const UpdateMemberRoleRequest = v.object({ role: roleName });
export const CreateInvitationRequest = v.object({ email, role: roleName });
export const AcceptInvitationRequest = v.object({ token, password: newPassword, first_name: personName, last_name: personName });

export const ListOrganizationsQuery = pageQuery('organizations');
export const ListMembersQuery = pageQuery('members');
export const ListInvitationsQuery = pageQuery('invitations');

export const OrganizationIdParams = v.object({ organization_id: integerParam(1, INT4_MAX, "The organization's id") });
export const UserIdParams = v.object({ user_id: integerParam(1, INT4_MAX, "The member's user id") });
export const InvitationIdParams = v.object({ invitation_id: integerParam(1, INT4_MAX, "The invitation's id") });

export const OrganizationResponse = v.object({
  id: integer,
  name: v.string(),
  status: v.picklist(['active', 'suspended']),
  created_at: timestamp,
});

export const MemberResponse = v.object({
  user_id: integer,
  email: v.string(),
  first_name: v.nullable(v.string()),
  last_name: v.nullable(v.string()),
  role: RoleView,
  status: v.picklist(['active', 'suspended']),
  created_at: timestamp,
});

/** Never the token, nor its hash. */
export const InvitationResponse = v.object({
  id: integer,
  email: v.string(),
  role: roleName,
  organization_id: integer,
  expires_at: timestamp,
  created_at: timestamp,
});

export const AcceptedInvitationResponse = UserIdResponse;
