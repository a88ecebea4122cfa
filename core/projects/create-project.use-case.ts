import type { Caller } from '../accounts/caller';
import type { Project } from './project';
import { assertMayWriteProjects } from './project-access';
import type { ProjectsDeps } from './projects-deps';

/** Already validated: `name` trimmed, 1..200 characters; `description` at most 10,000. */
export interface CreateProjectInput {
  name: string;
  description?: string | null;
}

export class CreateProject {
  constructor(private readonly deps: Pick<ProjectsDeps, 'projects' | 'clock'>) {}

  async execute(caller: Caller, input: CreateProjectInput): Promise<Project> {
    assertMayWriteProjects(caller);
    return this.deps.projects.create(caller.organizationId, {
      userId: caller.userId,
      name: input.name,
      description: input.description ?? null,
      createdAt: this.deps.clock.now(),
    });
  }
}
