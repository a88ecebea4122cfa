import type { Project } from '../../core/projects/project';
import type {
  NewProject,
  ProjectListOptions,
  ProjectPatch,
  ProjectRepository,
} from '../../core/projects/project-repository.port';
import type { InMemoryStore } from './in-memory-store';

const newestFirst = (a: Project, b: Project) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;

const isAfter = (project: Project, position: { createdAt: Date; id: number }) =>
  project.createdAt.getTime() < position.createdAt.getTime() ||
  (project.createdAt.getTime() === position.createdAt.getTime() && project.id < position.id);

// Rows are handed out as copies so callers can never mutate what is stored.
const copy = (project: Project): Project => ({ ...project, createdAt: new Date(project.createdAt), updatedAt: new Date(project.updatedAt) });

/**
 * Projects in memory. Standalone it keeps its own table; given the shared InMemoryStore it keeps
 * the `project` table there, so transactions cover it and deleting a user or an organization
 * cascades to their projects, as the foreign keys do in PostgreSQL.
 */
export class InMemoryProjectRepository implements ProjectRepository {
  private readonly rows: Map<number, Project>;
  private lastId = 0;

  constructor(private readonly store?: InMemoryStore) {
    this.rows = store ? store.table<Project>('project') : new Map();
    store?.onDeleteOrganization((organizationId) => this.deleteByOrganization(organizationId));
    store?.onDeleteUser((userId) => this.deleteByUser(userId));
  }

  create(organizationId: number, project: NewProject): Promise<Project> {
    return this.atomically(() => {
      const id = this.store ? this.store.nextId('project') : (this.lastId += 1);
      const row: Project = { id, organizationId, ...project, updatedAt: project.createdAt };
      this.rows.set(id, copy(row));
      return copy(row);
    });
  }

  list(organizationId: number, options: ProjectListOptions = {}): Promise<Project[]> {
    return this.atomically(() => {
      const { after, limit } = options;
      return [...this.rows.values()]
        .filter((p) => p.organizationId === organizationId && (!after || isAfter(p, after)))
        .sort(newestFirst)
        .slice(0, limit)
        .map(copy);
    });
  }

  findById(organizationId: number, id: number): Promise<Project | null> {
    return this.atomically(() => {
      const row = this.owned(organizationId, id);
      return row ? copy(row) : null;
    });
  }

  update(organizationId: number, id: number, patch: ProjectPatch): Promise<Project | null> {
    return this.atomically(() => {
      const row = this.owned(organizationId, id);
      if (!row) return null;
      const updated: Project = {
        ...row,
        name: patch.name ?? row.name,
        description: patch.description === undefined ? row.description : patch.description,
        updatedAt: patch.updatedAt,
      };
      this.rows.set(id, copy(updated));
      return copy(updated);
    });
  }

  delete(organizationId: number, id: number): Promise<boolean> {
    return this.atomically(() => (this.owned(organizationId, id) ? this.rows.delete(id) : false));
  }

  /** Cascade of an organization's deletion; called by the store, or by tests when standalone. */
  deleteByOrganization(organizationId: number): void {
    for (const [id, row] of this.rows) if (row.organizationId === organizationId) this.rows.delete(id);
  }

  /** Cascade of a user's deletion. */
  deleteByUser(userId: number): void {
    for (const [id, row] of this.rows) if (row.userId === userId) this.rows.delete(id);
  }

  private owned(organizationId: number, id: number): Project | undefined {
    const row = this.rows.get(id);
    return row?.organizationId === organizationId ? row : undefined;
  }

  private atomically<T>(operation: () => T): Promise<T> {
    return this.store ? this.store.unitOfWork.exclusive(operation) : Promise.resolve().then(operation);
  }
}
