import { ContainerModule } from 'inversify';
import type { AppConfig } from '../config/config';
import { TOKENS } from './tokens';
import type { Database } from '../../adapters/postgres/database';
import { PostgresProjectRepository } from '../../adapters/postgres/postgres-project-repository';
import type { Clock } from '../../core/shared/clock.port';
import type { ProjectRepository } from '../../core/projects/project-repository.port';
import { CreateProjectUseCase } from '../../core/projects/create-project.use-case';
import { ListProjectsUseCase } from '../../core/projects/list-projects.use-case';
import { GetProjectUseCase } from '../../core/projects/get-project.use-case';
import { UpdateProjectUseCase } from '../../core/projects/update-project.use-case';
import { DeleteProjectUseCase } from '../../core/projects/delete-project.use-case';
import { projectRoutes } from '../http/routes/projects.routes';

/** Projects: the PostgreSQL repository, the five use cases (plain classes, built here) and the routes. */
export function projectsModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<ProjectRepository>(TOKENS.ProjectRepository).toDynamicValue(
      (ctx) => new PostgresProjectRepository(ctx.get<Database>(TOKENS.Database)),
    );
    const projects = (ctx: { get<T>(id: symbol): T }) => ctx.get<ProjectRepository>(TOKENS.ProjectRepository);
    const clock = (ctx: { get<T>(id: symbol): T }) => ctx.get<Clock>(TOKENS.Clock);
    bind(TOKENS.CreateProjectUseCase).toDynamicValue((ctx) => new CreateProjectUseCase(projects(ctx), clock(ctx)));
    bind(TOKENS.ListProjectsUseCase).toDynamicValue((ctx) => new ListProjectsUseCase(projects(ctx)));
    bind(TOKENS.GetProjectUseCase).toDynamicValue((ctx) => new GetProjectUseCase(projects(ctx)));
    bind(TOKENS.UpdateProjectUseCase).toDynamicValue((ctx) => new UpdateProjectUseCase(projects(ctx), clock(ctx)));
    bind(TOKENS.DeleteProjectUseCase).toDynamicValue((ctx) => new DeleteProjectUseCase(projects(ctx)));
    bind(TOKENS.Routes).toDynamicValue((ctx) =>
      projectRoutes(
        {
          createProject: ctx.get(TOKENS.CreateProjectUseCase),
          listProjects: ctx.get(TOKENS.ListProjectsUseCase),
          getProject: ctx.get(TOKENS.GetProjectUseCase),
          updateProject: ctx.get(TOKENS.UpdateProjectUseCase),
          deleteProject: ctx.get(TOKENS.DeleteProjectUseCase),
        },
        { baseApiUrl: ctx.get<AppConfig>(TOKENS.Config).baseApiUrl },
      ),
    );
  });
}
