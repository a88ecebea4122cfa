import type { Caller } from '../accounts/caller';
import type { Clock } from '../shared/clock.port';
import { resourceNotFound } from '../shared/domain-error';
import type { Project } from './project';
import { assertMayWriteProjects } from './project-access';
import type { ProjectPatch, ProjectRepository } from './project-repository.port';

/** Already validated. A field that is omitted or null leaves the stored value unchanged. */
export interface UpdateProjectInput {
  id: number;
  name?: string | null;
  description?: string | null;
}

export class UpdateProject {
  constructor(
    private readonly projects: ProjectRepository,
    private readonly clock: Clock,
  ) {}

  /** Every update sets `updatedAt`, even one that changes no field. */
  async execute(caller: Caller, input: UpdateProjectInput): Promise<Project> {
    assertMayWriteProjects(caller);
    const patch: ProjectPatch = { updatedAt: this.clock.now() };
    if (input.name != null) patch.name = input.name;
    if (input.description != null) patch.description = input.description;
    const project = await this.projects.update(caller.organizationId, input.id, patch);
    if (!project) throw resourceNotFound('project', input.id);
    return project;
  }
}
