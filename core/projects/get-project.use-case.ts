import type { Caller } from '../accounts/caller';
import { resourceNotFound } from '../shared/domain-error';
import type { Project } from './project';
import type { ProjectRepository } from './project-repository.port';

export class GetProject {
  constructor(private readonly projects: ProjectRepository) {}

  /** Another organization's project is answered exactly like a missing one. */
  async execute(caller: Caller, input: { id: number }): Promise<Project> {
    const project = await this.projects.findById(caller.organizationId, input.id);
    if (!project) throw resourceNotFound('project', input.id);
    return project;
  }
}
