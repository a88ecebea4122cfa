import { ContainerModule } from 'inversify';
import type { AppConfig } from '../config/config';
import { TOKENS } from './tokens';
import type { Database } from '../../adapters/postgres/database';
import { PostgresProjectRepository } from '../../adapters/postgres/postgres-project-repository';
import type { Clock } from '../../core/shared/clock.port';
import type { ProjectRepository } from '../../core/projects/project-repository.port';
import { CreateProject } from '../../core/projects/create-project.use-case';
import { ListProjects } from '../../core/projects/list-projects.use-case';
import { GetProject } from '../../core/projects/get-project.use-case';
import { UpdateProject } from '../../core/projects/update-project.use-case';
import { DeleteProject } from '../../core/projects/delete-project.use-case';
import { projectRoutes } from '../http/routes/projects.routes';

/** Projects: the PostgreSQL repository, the five use cases (plain classes, built here) and the routes. */
export function projectsModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind<ProjectRepository>(TOKENS.ProjectRepository).toDynamicValue(
      (ctx) => new PostgresProjectRepository(ctx.get<Database>(TOKENS.Database)),
    );
    const projects = (ctx: { get<T>(id: symbol): T }) => ctx.get<ProjectRepository>(TOKENS.ProjectRepository);
    const clock = (ctx: { get<T>(id: symbol): T }) => ctx.get<Clock>(TOKENS.Clock);
    bind(TOKENS.CreateProject).toDynamicValue((ctx) => new CreateProject(projects(ctx), clock(ctx)));
    bind(TOKENS.ListProjects).toDynamicValue((ctx) => new ListProjects(projects(ctx)));
    bind(TOKENS.GetProject).toDynamicValue((ctx) => new GetProject(projects(ctx)));
    bind(TOKENS.UpdateProject).toDynamicValue((ctx) => new UpdateProject(projects(ctx), clock(ctx)));
    bind(TOKENS.DeleteProject).toDynamicValue((ctx) => new DeleteProject(projects(ctx)));
    bind(TOKENS.Routes).toDynamicValue((ctx) =>
      projectRoutes(
        {
          createProject: ctx.get(TOKENS.CreateProject),
          listProjects: ctx.get(TOKENS.ListProjects),
          getProject: ctx.get(TOKENS.GetProject),
          updateProject: ctx.get(TOKENS.UpdateProject),
          deleteProject: ctx.get(TOKENS.DeleteProject),
        },
        { baseApiUrl: ctx.get<AppConfig>(TOKENS.Config).baseApiUrl },
      ),
    );
  });
}
