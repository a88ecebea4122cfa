import * as v from 'valibot';
import { INT4_MAX, integer, integerParam } from './integer-param.schema';
import { maxCharacters, requiredName, storable } from './text.schema';
import { pageQuery } from '../paging';

/** Request and response shapes of the project routes; the OpenAPI description is built from these. */

const projectName = requiredName(200);

const projectDescription = v.pipe(v.string('Must be a string'), ...maxCharacters(10_000), storable);

/** Unknown fields are dropped (v.object strips them), not rejected. */
export const CreateProjectRequest = v.object({
  name: projectName,
  description: v.optional(v.nullable(projectDescription)),
});

/** A field that is omitted or null leaves the stored value unchanged: a client may send only what changed. */
export const UpdateProjectRequest = v.object({
  name: v.optional(v.nullable(projectName)),
  description: v.optional(v.nullable(projectDescription)),
});

export const ProjectIdParams = v.object({ project_id: integerParam(1, INT4_MAX, "The project's id") });

export const ListProjectsQuery = pageQuery('projects');

export const ProjectResponse = v.object({
  id: integer,
  name: v.string(),
  description: v.nullable(v.string()),
  created_at: v.pipe(v.string(), v.isoTimestamp()),
  updated_at: v.pipe(v.string(), v.isoTimestamp()),
});
