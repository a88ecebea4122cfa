import type { Project } from '../../core/projects/project';
import type { NewProject, ProjectPatch, ProjectRepository } from '../../core/projects/project-repository.port';
import type { ListWindow } from '../../core/shared/list-page';
import type { Selectable, Updateable } from 'kysely';
import type { Database } from './database';
import { newestFirstList } from './list-window';
import { columnsOf } from './schema/columns';
import { parseTimestamp } from './timestamp';
import type { Tables } from './schema/tables';

type ProjectRow = Selectable<Tables['project']>;

// Prepared once per connection: the list is the W1 hot path (docs/benchmarks.md).
const LIST = newestFirstList('project', ['organization_id'], columnsOf('project'));
const COUNT = 'select count(*)::int as count from project where organization_id = $1';
// The check and the insert in one statement (schema/quota.routines.ts).
const CREATE_WITHIN_LIMIT = `select * from project_create_within_limit($1, $2, $3, $4, $5, $6)`;

const toProject = (row: ProjectRow): Project => ({
  id: row.id,
  organizationId: row.organization_id,
  userId: row.user_id,
  name: row.name,
  description: row.description,
  createdAt: parseTimestamp(row.created_at),
  updatedAt: parseTimestamp(row.updated_at),
});

/**
 * Kysely over `project`. Every statement is filtered by `organization_id`, so a guessed id of
 * another organization matches nothing. Runs inside the caller's UnitOfWork when there is one.
 */
export class PostgresProjectRepository implements ProjectRepository {
  constructor(private readonly database: Database) {}

  async createWithinLimit(organizationId: number, project: NewProject, limit: number): Promise<Project | null> {
    const [row] = await this.database.select<ProjectRow>(CREATE_WITHIN_LIMIT, [
      organizationId,
      project.userId,
      project.name,
      project.description,
      project.createdAt,
      limit,
    ]);
    return row ? toProject(row) : null;
  }

  async list(organizationId: number, window?: ListWindow): Promise<Project[]> {
    // Walks the (organization_id, created_at desc, id desc) index without a sort.
    const rows = await LIST.select(this.database, [organizationId], window);
    return rows.map(toProject);
  }

  async findById(organizationId: number, id: number): Promise<Project | null> {
    const row = await this.database.db
      .selectFrom('project')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row ? toProject(row) : null;
  }

  async update(organizationId: number, id: number, patch: ProjectPatch): Promise<Project | null> {
    const changes: Updateable<Tables['project']> = { updated_at: patch.updatedAt };
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.description !== undefined) changes.description = patch.description;
    const row = await this.database.db
      .updateTable('project')
      .set(changes)
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row ? toProject(row) : null;
  }

  async delete(organizationId: number, id: number): Promise<boolean> {
    const result = await this.database.db
      .deleteFrom('project')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async countByOrganization(organizationId: number): Promise<number> {
    // Served by the list index's leading column; fixed SQL, it runs on every quota-checked create.
    const [row] = await this.database.select<{ count: number }>(COUNT, [organizationId]);
    return row!.count;
  }
}
