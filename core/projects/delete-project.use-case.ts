import type { Caller } from '../accounts/caller';
import { resourceNotFound } from '../shared/domain-error';
import { assertMayWriteProjects } from './project-access';
import type { ProjectsDeps } from './projects-deps';

export class DeleteProject {
  constructor(private readonly deps: Pick<ProjectsDeps, 'projects'>) {}

  /** Not idempotent on purpose: deleting a missing project answers RESOURCE_NOT_FOUND. */
  async execute(caller: Caller, input: { id: number }): Promise<void> {
    assertMayWriteProjects(caller);
    const existing = await this.deps.projects.findById(caller.organizationId, input.id);
    // A concurrent delete between the two calls is still a miss for this caller.
    if (!existing || !(await this.deps.projects.delete(caller.organizationId, input.id))) {
      throw resourceNotFound('project', input.id);
    }
  }
}
