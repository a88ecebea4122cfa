import type { Caller } from '../access/caller';
import { readPage } from '../shared/list-page';
import type { Project } from './project';
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
    // Keyset paging shared by every list: `limit + 1` rows tell whether another page exists.
    const page = await readPage(input, (window) => this.deps.projects.list(caller.organizationId, window));
    return { projects: page.items, nextCursor: page.nextCursor };
  }
}
