import { EntitySchema } from '@mikro-orm/core';
import { OrganizationSchema, UserSchema, type OrganizationEntity, type UserEntity } from './accounts.entities';

export interface ProjectEntity {
  id: number;
  organization: OrganizationEntity;
  user: UserEntity;
  name: string;
  description?: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The sample feature's table. Timestamps keep milliseconds (precision 3): the list cursor carries
 * a JavaScript Date, and a microsecond left in the column would let keyset paging skip rows.
 */
export const ProjectSchema = new EntitySchema<ProjectEntity>({
  name: 'Project',
  tableName: 'project',
  indexes: [
    {
      // Serves the list and its keyset cursor: one organization, newest first. EntitySchema has no
      // per-column sort order, hence the expression.
      name: 'project_organization_id_created_at_id_index',
      expression:
        'create index "project_organization_id_created_at_id_index" on "project" ("organization_id", "created_at" desc, "id" desc)',
    },
  ],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    // The list index above leads with organization_id, so it also serves this foreign key.
    organization: { kind: 'm:1', entity: () => OrganizationSchema, updateRule: 'cascade', deleteRule: 'cascade', index: false },
    user: { kind: 'm:1', entity: () => UserSchema, updateRule: 'cascade', deleteRule: 'cascade', index: true },
    name: { type: 'string', length: 200 },
    description: { type: 'text', nullable: true },
    createdAt: { type: 'Date', columnType: 'timestamptz(3)' },
    updatedAt: { type: 'Date', columnType: 'timestamptz(3)' },
  },
});
