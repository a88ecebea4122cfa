import type { Entitlements } from '../access/entitlements.port';
import type { Clock } from '../shared/clock.port';
import type { ProjectRepository } from './project-repository.port';

/** What a projects use case is built from; each takes the `Pick` it needs as its one `deps`. */
export interface ProjectsDeps {
  projects: ProjectRepository;
  /** Applies the organization's `max_projects` to creates. */
  quota: Entitlements<'max_projects'>;
  clock: Clock;
}
