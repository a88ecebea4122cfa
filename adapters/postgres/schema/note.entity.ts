import { EntitySchema } from '@mikro-orm/core';
import { OrganizationSchema, UserSchema, type OrganizationEntity, type UserEntity } from './accounts.entities';

export interface NoteEntity {
  id: number;
  organization: OrganizationEntity;
  user: UserEntity;
  title: string;
  content: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Users' notes. Deleting the user or the organization deletes them. Timestamps keep
 * milliseconds (precision 3): the list cursor carries a JavaScript Date, and a microsecond left
 * in the column would let keyset paging skip rows.
 */
export const NoteSchema = new EntitySchema<NoteEntity>({
  name: 'Note',
  tableName: 'note',
  indexes: [
    {
      // Serves the owner's list and its keyset cursor (newest first), and, by its leading column,
      // the organization's count that `max_notes` checks. EntitySchema has no per-column sort order.
      name: 'note_organization_id_user_id_created_at_id_index',
      expression:
        'create index "note_organization_id_user_id_created_at_id_index" on "note" ("organization_id", "user_id", "created_at" desc, "id" desc)',
    },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    organization: { kind: 'm:1', entity: () => OrganizationSchema, updateRule: 'cascade', deleteRule: 'cascade', index: false },
    // Its own index: deleting a user finds their notes without a scan.
    user: { kind: 'm:1', entity: () => UserSchema, updateRule: 'cascade', deleteRule: 'cascade', index: true },
    title: { type: 'string', length: 200 },
    content: { type: 'text' },
    createdAt: { type: 'Date', columnType: 'timestamptz(3)' },
    updatedAt: { type: 'Date', columnType: 'timestamptz(3)' },
  },
});
