import type { Clock } from '../shared/clock.port';
import type { ProjectRepository } from './project-repository.port';

/** What a projects use case is built from; each takes the `Pick` it needs as its one `deps`. */
export interface ProjectsDeps {
  projects: ProjectRepository;
  clock: Clock;
}
