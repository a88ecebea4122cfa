import type { Caller } from '../access/caller';
import { resourceNotFound } from '../shared/domain-error';
import { requireRole } from '../access/require-role';
import type { ProjectsDeps } from './projects-deps';

export class DeleteProject {
  constructor(private readonly deps: Pick<ProjectsDeps, 'projects'>) {}

  /** Not idempotent on purpose: deleting a missing project answers RESOURCE_NOT_FOUND. */
  async execute(caller: Caller, input: { id: number }): Promise<void> {
    requireRole(caller, 'member');
    const existing = await this.deps.projects.findById(caller.organizationId, input.id);
    // A concurrent delete between the two calls is still a miss for this caller.
    if (!existing || !(await this.deps.projects.delete(caller.organizationId, input.id))) {
      throw resourceNotFound('project', input.id);
    }
  }
}
