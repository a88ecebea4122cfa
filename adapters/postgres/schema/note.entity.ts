import { defineEntity, p } from '@mikro-orm/core';
import { OrganizationSchema, UserSchema } from './accounts.entities';

/**
 * Users' notes. Deleting the user or the organization deletes them. Timestamps keep
 * milliseconds (precision 3): the list cursor carries a JavaScript Date, and a microsecond left
 * in the column would let keyset paging skip rows.
 */
export const NoteSchema = defineEntity({
  name: 'Note',
  tableName: 'note',
  indexes: [
    {
      // Serves the owner's list and its keyset cursor (newest first), and, by its leading column,
      // the organization's count that `max_notes` checks. A schema has no per-column sort order.
      name: 'note_organization_id_user_id_created_at_id_index',
      expression:
        'create index "note_organization_id_user_id_created_at_id_index" on "note" ("organization_id", "user_id", "created_at" desc, "id" desc)',
    },
  ],
  properties: {
    id: p.integer().primary().autoincrement(),
    organization: p.manyToOne(OrganizationSchema).updateRule('cascade').deleteRule('cascade').index(false),
    // Its own index: deleting a user finds their notes without a scan.
    user: p.manyToOne(UserSchema).updateRule('cascade').deleteRule('cascade').index(),
    title: p.string().length(200),
    content: p.text(),
    createdAt: p.datetime().columnType('timestamptz(3)'),
    updatedAt: p.datetime().columnType('timestamptz(3)'),
  },
});
