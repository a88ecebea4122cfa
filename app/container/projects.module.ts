import { ContainerModule } from 'inversify';
import { TOKENS } from './tokens';
import { projectRoutes } from '../http/routes/projects.routes';
import { PostgresProjectRepository } from '../../adapters/postgres/postgres-project-repository';
import type { ProjectsDeps } from '../../core/projects/projects-deps';
import { CreateProject } from '../../core/projects/create-project.use-case';
import { ListProjects } from '../../core/projects/list-projects.use-case';
import { GetProject } from '../../core/projects/get-project.use-case';
import { UpdateProject } from '../../core/projects/update-project.use-case';
import { DeleteProject } from '../../core/projects/delete-project.use-case';

/**
 * Projects, the slice to copy. Every context module has the same three parts: its adapters, one
 * per port token; its use cases, each built from the one `deps` object; its routes, which get
 * the use cases and never the container.
 */
export function projectsModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.ProjectRepository).toDynamicValue((ctx) => new PostgresProjectRepository(ctx.get(TOKENS.Database)));

    bind(TOKENS.ProjectUseCases).toDynamicValue((ctx) => {
      const deps: ProjectsDeps = { projects: ctx.get(TOKENS.ProjectRepository), quota: ctx.get(TOKENS.Entitlements), clock: ctx.get(TOKENS.Clock) };
      return {
        createProject: new CreateProject(deps),
        listProjects: new ListProjects(deps),
        getProject: new GetProject(deps),
        updateProject: new UpdateProject(deps),
        deleteProject: new DeleteProject(deps),
      };
    });

    bind(TOKENS.Routes).toDynamicValue((ctx) =>
      projectRoutes(ctx.get(TOKENS.ProjectUseCases), { baseApiUrl: ctx.get(TOKENS.Config).baseApiUrl }),
    );
  });
}
