import { UNLIMITED } from '../../core/plans/feature-catalogue';
import type { Project } from '../../core/projects/project';
import type { NewProject, ProjectPatch, ProjectRepository } from '../../core/projects/project-repository.port';
import { newestFirstWindow, type ListWindow } from '../../core/shared/list-page';
import { deleteWhere, type InMemoryStore, type Table } from './in-memory-store';

// Rows are handed out as copies so callers can never mutate what is stored.
const copy = (project: Project): Project => ({ ...project, createdAt: new Date(project.createdAt), updatedAt: new Date(project.updatedAt) });

/**
 * Projects in the shared InMemoryStore's `project` table, so transactions cover them and deleting
 * a user or an organization cascades to their projects, as the foreign keys do in PostgreSQL.
 */
export class InMemoryProjectRepository implements ProjectRepository {
  private readonly rows: Table<Project>;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<Project>('project');
    store.onDeleteOrganization((organizationId) => deleteWhere(this.rows, (row) => row.organizationId === organizationId));
    store.onDeleteUser((userId) => deleteWhere(this.rows, (row) => row.userId === userId));
  }

  createWithinLimit(organizationId: number, project: NewProject, limit: number): Promise<Project | null> {
    return this.atomically(() => (limit !== UNLIMITED && this.count(organizationId) >= limit ? null : this.insert(organizationId, project)));
  }

  list(organizationId: number, window?: ListWindow): Promise<Project[]> {
    return this.atomically(() => newestFirstWindow(this.rows.values(), (row) => row.organizationId === organizationId, window).map(copy));
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

  countByOrganization(organizationId: number): Promise<number> {
    return this.atomically(() => this.count(organizationId));
  }

  private insert(organizationId: number, project: NewProject): Project {
    const row: Project = { id: this.store.nextId('project'), organizationId, ...project, updatedAt: project.createdAt };
    this.rows.set(row.id, copy(row));
    return copy(row);
  }

  private count(organizationId: number): number {
    return [...this.rows.values()].filter((row) => row.organizationId === organizationId).length;
  }

  private owned(organizationId: number, id: number): Project | undefined {
    const row = this.rows.get(id);
    return row?.organizationId === organizationId ? row : undefined;
  }

  private atomically<T>(operation: () => T): Promise<T> {
    return this.store.unitOfWork.exclusive(operation);
  }
}
