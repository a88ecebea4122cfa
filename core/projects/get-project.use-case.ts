import type { Caller } from '../access/caller';
import { resourceNotFound } from '../shared/domain-error';
import type { Project } from './project';
import type { ProjectsDeps } from './projects-deps';

export class GetProject {
  constructor(private readonly deps: Pick<ProjectsDeps, 'projects'>) {}

  /** Another organization's project is answered exactly like a missing one. */
  async execute(caller: Caller, input: { id: number }): Promise<Project> {
    const project = await this.deps.projects.findById(caller.organizationId, input.id);
    if (!project) throw resourceNotFound('project', input.id);
    return project;
  }
}
