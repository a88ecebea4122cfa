import { defineEntity, p } from '@mikro-orm/core';
import type { RoleName } from '../../../core/access/role';
import { OrganizationSchema, UserSchema } from './accounts.entities';

/**
 * Invitations into an organization. Only the SHA-256 of the emailed token is stored. Deleting the
 * organization deletes its invitations; deleting the inviting user keeps them (who invited is
 * history, not a condition of the invitation).
 */
export const InvitationSchema = defineEntity({
  name: 'Invitation',
  tableName: 'invitation',
  properties: {
    id: p.integer().primary().autoincrement(),
    // Serves the organization's list and the cascade from organization.
    organization: p.manyToOne(OrganizationSchema).updateRule('cascade').deleteRule('cascade').index(),
    // Serves re-invitation (same email replaces) and the identity provider's lookup by email.
    email: p.string().length(320).index(),
    role: p.string().$type<RoleName>().length(20),
    tokenHash: p.string().length(64).unique(),
    invitedByUser: p.manyToOne(UserSchema).updateRule('cascade').deleteRule('set null').nullable().index(false),
    expiresAt: p.datetime().columnType('timestamptz'),
    acceptedAt: p.datetime().columnType('timestamptz').nullable(),
    revokedAt: p.datetime().columnType('timestamptz').nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
  },
});
