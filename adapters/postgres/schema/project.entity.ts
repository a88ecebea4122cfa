import { defineEntity, p } from '@mikro-orm/core';
import { OrganizationSchema, UserSchema } from './accounts.entities';

/**
 * The sample feature's table. Timestamps keep milliseconds (precision 3): the list cursor carries
 * a JavaScript Date, and a microsecond left in the column would let keyset paging skip rows.
 */
export const ProjectSchema = defineEntity({
  name: 'Project',
  tableName: 'project',
  indexes: [
    {
      // Serves the list and its keyset cursor: one organization, newest first. A schema has no per-column
      // sort order, hence the expression.
      name: 'project_organization_id_created_at_id_index',
      expression:
        'create index "project_organization_id_created_at_id_index" on "project" ("organization_id", "created_at" desc, "id" desc)',
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    // The list index above leads with organization_id, so it also serves this foreign key.
    organization: p.manyToOne(OrganizationSchema).updateRule('cascade').deleteRule('cascade').index(false),
    // Null for a project an organization API key created: it outlives every member.
    user: p.manyToOne(UserSchema).updateRule('cascade').deleteRule('cascade').nullable().index(),
    name: p.string().length(200),
    description: p.text().nullable(),
    createdAt: p.datetime().columnType('timestamptz(3)'),
    updatedAt: p.datetime().columnType('timestamptz(3)'),
  },
});
