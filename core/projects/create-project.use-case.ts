import type { Caller } from '../accounts/caller';
import type { Clock } from '../shared/clock.port';
import type { Project } from './project';
import { assertMayWriteProjects } from './project-access';
import type { ProjectRepository } from './project-repository.port';

/** Already validated: `name` trimmed, 1..200 characters; `description` at most 10,000. */
export interface CreateProjectInput {
  name: string;
  description?: string | null;
}

export class CreateProject {
  constructor(
    private readonly projects: ProjectRepository,
    private readonly clock: Clock,
  ) {}

  async execute(caller: Caller, input: CreateProjectInput): Promise<Project> {
    assertMayWriteProjects(caller);
    return this.projects.create(caller.organizationId, {
      userId: caller.userId,
      name: input.name,
      description: input.description ?? null,
      createdAt: this.clock.now(),
    });
  }
}
