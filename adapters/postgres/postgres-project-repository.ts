import type { Project } from '../../core/projects/project';
import type { NewProject, ProjectPatch, ProjectRepository } from '../../core/projects/project-repository.port';
import type { ListWindow } from '../../core/shared/list-page';
import type { Selectable, Updateable } from 'kysely';
import type { Database } from './database';
import { newestFirstList } from './list-window';
import { epochMillis, parseTimestamp } from './timestamp';
import type { Tables } from './schema/tables';

type ProjectRow = Selectable<Tables['project']>;

// Prepared once per connection: the list is the W1 hot path (docs/benchmarks.md). Its rows come
// as arrays, the timestamps as epoch milliseconds: no column names or timestamp text to read per row.
const LIST_COLUMNS = ['id', 'organization_id', 'user_id', 'name', 'description', 'created_at', 'updated_at'] as const satisfies readonly (keyof ProjectRow)[];
type ListTuple = [id: number, organizationId: number, userId: number | null, name: string, description: string | null, createdAtMs: number, updatedAtMs: number];
const LIST = newestFirstList('project', ['organization_id'], LIST_COLUMNS, { created_at: epochMillis, updated_at: epochMillis });
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

const fromListTuple = (row: ListTuple): Project => ({
  id: row[0],
  organizationId: row[1],
  userId: row[2],
  name: row[3],
  description: row[4],
  createdAt: new Date(row[5]),
  updatedAt: new Date(row[6]),
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
    const rows = await LIST.selectTuples<ListTuple>(this.database, [organizationId], window);
    return rows.map(fromListTuple);
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
