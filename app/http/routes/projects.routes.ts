import * as v from 'valibot';
import { isoTime } from '../iso-time';
import { listBody, STREAM_BATCH } from '../list-response';
import { NEXT_LINK_HEADER } from '../paging';
import { defineRoute, type AnyRoute } from '../route';
import {
  CreateProjectRequest,
  ListProjectsQuery,
  ProjectIdParams,
  ProjectResponse,
  UpdateProjectRequest,
} from '../schemas/project.schemas';
import type { CreateProject } from '../../../core/projects/create-project.use-case';
import type { DeleteProject } from '../../../core/projects/delete-project.use-case';
import type { GetProject } from '../../../core/projects/get-project.use-case';
import type { ListProjects } from '../../../core/projects/list-projects.use-case';
import type { Project } from '../../../core/projects/project';
import type { UpdateProject } from '../../../core/projects/update-project.use-case';

export interface ProjectUseCases {
  createProject: CreateProject;
  listProjects: ListProjects;
  getProject: GetProject;
  updateProject: UpdateProject;
  deleteProject: DeleteProject;
}

/**
 * Never the owning organization or user: those stay server-side, so a response never discloses
 * who owns what. `isoTime` is `toISOString` at a tenth of the cost: a page carries two per row.
 */
const toResponse = (project: Project): v.InferOutput<typeof ProjectResponse> => ({
  id: project.id,
  name: project.name,
  description: project.description,
  created_at: isoTime(project.createdAt),
  updated_at: isoTime(project.updatedAt),
});

const TAG = 'Projects';

export function projectRoutes(useCases: ProjectUseCases, options: { baseApiUrl: string }): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/projects',
      tag: TAG,
      operationId: 'createProject',
      summary: "Create a project in the caller's organization",
      description: "Creates a project owned by the caller's organization. `name` is trimmed and must keep 1 to 200 characters; `description` holds up to 10,000 characters or null. `Location` names the new project.",
      access: 'member',
      apiKeys: 'accepted',
      body: CreateProjectRequest,
      responses: { 201: { description: 'The new project', schema: ProjectResponse, headers: { Location: '`/projects/{project_id}` of the new project' } } },
      handler: async ({ caller, body, ctx }) => {
        const project = await useCases.createProject.execute(caller, body);
        ctx.set('Location', `/projects/${project.id}`);
        return { status: 201, body: toResponse(project) };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/projects',
      tag: TAG,
      operationId: 'listProjects',
      summary: "List the caller's organization's projects, newest first",
      description:
        'Newest first. With `limit`, one page, and `Link: <…>; rel="next"` while more remain: follow it as it is (its `cursor` is opaque). ' +
        `Without \`limit\`, every project of the organization, streamed: the server reads them ${STREAM_BATCH} at a time, so a large organization costs it one batch of memory, not the whole list. Prefer \`limit\` in user interfaces.`,
      access: 'readonly',
      apiKeys: 'accepted',
      query: ListProjectsQuery,
      responses: {
        200: { description: 'A page of projects; all of them without `limit`', schema: v.array(ProjectResponse), headers: NEXT_LINK_HEADER },
      },
      handler: async ({ caller, query, ctx }) => ({
        status: 200,
        body: await listBody(ctx, query, { page: (request) => useCases.listProjects.execute(caller, request), toResponse }, { baseApiUrl: options.baseApiUrl, path: '/projects' }),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/projects/{project_id}',
      tag: TAG,
      operationId: 'getProject',
      summary: "Read one of the caller's organization's projects",
      description: "A project of another organization answers 404 `RESOURCE_NOT_FOUND`, exactly like a missing one.",
      access: 'readonly',
      apiKeys: 'accepted',
      params: ProjectIdParams,
      responses: { 200: { description: 'The project', schema: ProjectResponse } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params }) => ({
        status: 200,
        body: toResponse(await useCases.getProject.execute(caller, { id: params.project_id })),
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/projects/{project_id}',
      tag: TAG,
      operationId: 'updateProject',
      summary: 'Update a project; omitted or null fields keep their value',
      description: "Fields that are omitted or null keep their value; the limits of `createProject` apply.",
      access: 'member',
      apiKeys: 'accepted',
      params: ProjectIdParams,
      body: UpdateProjectRequest,
      responses: { 200: { description: 'The updated project', schema: ProjectResponse } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params, body }) => ({
        status: 200,
        body: toResponse(await useCases.updateProject.execute(caller, { id: params.project_id, ...body })),
      }),
    }),
    defineRoute({
      method: 'delete',
      path: '/projects/{project_id}',
      tag: TAG,
      operationId: 'deleteProject',
      summary: 'Delete a project',
      description: "Deletes the project for good.",
      access: 'member',
      apiKeys: 'accepted',
      params: ProjectIdParams,
      responses: { 204: { description: 'Deleted' } },
      errors: ['RESOURCE_NOT_FOUND'],
      handler: async ({ caller, params }) => {
        await useCases.deleteProject.execute(caller, { id: params.project_id });
        return { status: 204 };
      },
    }),
  ];
}
