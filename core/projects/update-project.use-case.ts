import type { Caller } from '../access/caller';
import { resourceNotFound } from '../shared/domain-error';
import type { Project } from './project';
import { requireRole } from '../access/require-role';
import type { ProjectPatch } from './project-repository.port';
import type { ProjectsDeps } from './projects-deps';

/** Already validated. A field that is omitted or null leaves the stored value unchanged. */
export interface UpdateProjectInput {
  id: number;
  name?: string | null;
  description?: string | null;
}

export class UpdateProject {
  constructor(private readonly deps: Pick<ProjectsDeps, 'projects' | 'clock'>) {}

  /** Every update sets `updatedAt`, even one that changes no field. */
  async execute(caller: Caller, input: UpdateProjectInput): Promise<Project> {
    requireRole(caller, 'member');
    const patch: ProjectPatch = { updatedAt: this.deps.clock.now() };
    if (input.name != null) patch.name = input.name;
    if (input.description != null) patch.description = input.description;
    const project = await this.deps.projects.update(caller.organizationId, input.id, patch);
    if (!project) throw resourceNotFound('project', input.id);
    return project;
  }
}
