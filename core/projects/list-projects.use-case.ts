import type { Caller } from '../access/caller';
import { readPage, type Page, type PageRequest } from '../shared/list-page';
import type { Project } from './project';
import type { ProjectsDeps } from './projects-deps';

/** The caller's organization's projects, newest first, one page at a time. */
export class ListProjects {
  constructor(private readonly deps: Pick<ProjectsDeps, 'projects'>) {}

  async execute(caller: Caller, input: PageRequest): Promise<Page<Project>> {
    return readPage(input, (window) => this.deps.projects.list(caller.organizationId, window));
  }
}
