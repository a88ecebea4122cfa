import { defineEntity, p } from '@mikro-orm/core';
import type { RoleName } from '../../../core/access/role';
import { OrganizationSchema, UserSchema } from './accounts.entities';
import { ApiKeySchema } from './api-keys.entities';

/**
 * Invitations into an organization. Only the SHA-256 of the emailed token is stored. An
 * invitation is issued by a user or by an API key, never both (the check); deleting the
 * organization deletes its invitations; deleting the inviting user or revoking (deleting) the
 * inviting key keeps them with that reference cleared, and such an invitation is no longer
 * vouched for, so it cannot be accepted.
 */
export const InvitationSchema = defineEntity({
  name: 'Invitation',
  tableName: 'invitation',
  checks: [{ name: 'invitation_one_issuer', expression: '"invited_by_user_id" is null or "invited_by_api_key_id" is null' }],
  properties: {
    id: p.integer().primary().autoincrement(),
    // Serves the organization's list and the cascade from organization.
    organization: p.manyToOne(OrganizationSchema).updateRule('cascade').deleteRule('cascade').index(),
    // Serves re-invitation (same email replaces) and the identity provider's lookup by email.
    email: p.string().length(320).index(),
    role: p.string().$type<RoleName>().length(20),
    tokenHash: p.string().length(64).unique(),
    invitedByUser: p.manyToOne(UserSchema).updateRule('cascade').deleteRule('set null').nullable().index(false),
    // Indexed: revoking a key clears the reference in its invitations.
    invitedByApiKey: p.manyToOne(ApiKeySchema).updateRule('cascade').deleteRule('set null').nullable().index(),
    expiresAt: p.datetime().columnType('timestamptz'),
    acceptedAt: p.datetime().columnType('timestamptz').nullable(),
    revokedAt: p.datetime().columnType('timestamptz').nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
  },
});
