import { callerUserId, type Caller } from '../access/caller';
import type { Project } from './project';
import { requireRole } from '../access/require-role';
import type { ProjectsDeps } from './projects-deps';

/** Already validated: `name` trimmed, 1..200 characters; `description` at most 10,000. */
export interface CreateProjectInput {
  name: string;
  description?: string | null;
}

/** Creates a project within the organization's `max_projects`, checked and inserted atomically. */
export class CreateProject {
  constructor(private readonly deps: Pick<ProjectsDeps, 'projects' | 'quota' | 'clock'>) {}

  async execute(caller: Caller, input: CreateProjectInput): Promise<Project> {
    requireRole(caller, 'member');
    const project = { userId: callerUserId(caller), name: input.name, description: input.description ?? null, createdAt: this.deps.clock.now() };
    return this.deps.quota.take(caller.organizationId, 'max_projects', (limit) => this.deps.projects.createWithinLimit(caller.organizationId, project, limit));
  }
}
