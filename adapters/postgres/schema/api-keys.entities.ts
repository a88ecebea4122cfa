import { defineEntity, p } from '@mikro-orm/core';
import type { ApiKeyRole } from '../../../core/api-keys/api-key';
import { OrganizationSchema, UserSchema } from './accounts.entities';

/**
 * Organization API keys: the SHA-256 of each key, never the key. A key belongs to its
 * organization: deleting the user who made it leaves the key with no creator. Timestamps keep
 * milliseconds, as the list cursor carries a JavaScript Date.
 */
export const ApiKeySchema = defineEntity({
  name: 'ApiKey',
  tableName: 'api_key',
  indexes: [
    {
      // Serves the list and its keyset cursor: one organization, newest first.
      name: 'api_key_organization_id_created_at_id_index',
      expression: 'create index "api_key_organization_id_created_at_id_index" on "api_key" ("organization_id", "created_at" desc, "id" desc)',
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    // The list index above leads with organization_id, so it also serves this foreign key.
    organization: p.manyToOne(OrganizationSchema).updateRule('cascade').deleteRule('cascade').index(false),
    name: p.string().length(64),
    role: p.string().$type<ApiKeyRole>().length(20),
    prefix: p.string().length(10),
    keyHash: p.string().length(64).unique(),
    createdByUser: p.manyToOne(UserSchema).updateRule('cascade').deleteRule('set null').nullable().index(),
    createdAt: p.datetime().columnType('timestamptz(3)'),
    expiresAt: p.datetime().columnType('timestamptz(3)').nullable(),
    lastUsedAt: p.datetime().columnType('timestamptz(3)').nullable(),
  },
});
