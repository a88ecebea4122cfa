import { EntitySchema } from '@mikro-orm/core';
import { OrganizationSchema, UserSchema, type OrganizationEntity, type UserEntity } from './accounts.entities';

export interface InvitationEntity {
  id: number;
  organization: OrganizationEntity;
  email: string;
  role: string;
  tokenHash: string;
  invitedByUser?: UserEntity;
  expiresAt: Date;
  acceptedAt?: Date;
  revokedAt?: Date;
  createdAt: Date;
}

/**
 * Invitations into an organization. Only the SHA-256 of the emailed token is stored. Deleting the
 * organization deletes its invitations; deleting the inviting user keeps them (who invited is
 * history, not a condition of the invitation).
 */
export const InvitationSchema = new EntitySchema<InvitationEntity>({
  name: 'Invitation',
  tableName: 'invitation',
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    // Serves the organization's list and the cascade from organization.
    organization: { kind: 'm:1', entity: () => OrganizationSchema, updateRule: 'cascade', deleteRule: 'cascade', index: true },
    // Serves re-invitation (same email replaces) and the identity provider's lookup by email.
    email: { type: 'string', length: 320, index: true },
    role: { type: 'string', length: 20 },
    tokenHash: { type: 'string', length: 64, unique: true },
    invitedByUser: { kind: 'm:1', entity: () => UserSchema, updateRule: 'cascade', deleteRule: 'set null', nullable: true, index: false },
    expiresAt: { type: 'Date', columnType: 'timestamptz' },
    acceptedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    revokedAt: { type: 'Date', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
