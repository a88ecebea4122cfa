import type { Caller } from '../accounts/caller';
import type { Project } from './project';
import { decodeProjectCursor, encodeProjectCursor } from './project-cursor';
import type { ProjectsDeps } from './projects-deps';

/** Already validated: `limit` 1..1000; `cursor` is whatever the client sent back. */
export interface ListProjectsInput {
  /** All remaining projects when omitted. */
  limit?: number;
  cursor?: string;
}

export interface ProjectPage {
  /** Newest first. */
  projects: Project[];
  /** Where the next page starts; null when nothing remains. */
  nextCursor: string | null;
}

export class ListProjects {
  constructor(private readonly deps: Pick<ProjectsDeps, 'projects'>) {}

  async execute(caller: Caller, input: ListProjectsInput): Promise<ProjectPage> {
    const after = input.cursor === undefined ? undefined : decodeProjectCursor(input.cursor);
    // One extra row tells whether another page exists without a count query.
    const rows = await this.deps.projects.list(caller.organizationId, {
      ...(input.limit === undefined ? {} : { limit: input.limit + 1 }),
      ...(after ? { after } : {}),
    });
    if (input.limit === undefined || rows.length <= input.limit) return { projects: rows, nextCursor: null };
    const projects = rows.slice(0, input.limit);
    return { projects, nextCursor: encodeProjectCursor(projects[projects.length - 1]!) };
  }
}
