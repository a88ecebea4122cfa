import type { Selectable } from 'kysely';
import type { IdentityLink } from '../../core/accounts/identity-link-repository.port';
import type { Organization, User } from '../../core/accounts/user';
import type { Tables } from './schema/tables';

/**
 * The accounts tables' rows as domain values, for both adapter families: typed on the rows as the
 * driver reads them (times as text), which the in-memory rows (Dates) fit too.
 */
export const toUser = (row: Selectable<Tables['app_user']>): User => ({
  id: row.id,
  organizationId: row.organization_id,
  email: row.email,
  passwordHash: row.password_hash,
  firstName: row.first_name,
  lastName: row.last_name,
  role: row.role,
  emailVerified: row.email_verified_at !== null,
  status: row.status,
  credentialsVersion: row.credentials_version,
  createdAt: new Date(row.created_at),
});

export const toOrganization = (row: Selectable<Tables['organization']>): Organization => ({
  id: row.id,
  name: row.name,
  status: row.status,
  createdAt: new Date(row.created_at),
});

export const toIdentityLink = (row: Selectable<Tables['identity_link']>): IdentityLink => ({
  id: row.id,
  userId: row.user_id,
  issuer: row.issuer,
  subject: row.subject,
  createdAt: new Date(row.created_at),
});
