import * as v from 'valibot';
import { INT4_MAX, integer, integerParam } from './integer-param.schema';
import { maxCharacters, requiredName, storable } from './text.schema';

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

export const ListProjectsQuery = v.object({
  /** Without it every project is returned. */
  limit: v.optional(integerParam(1, 1000, 'At most this many projects; without it, all of them')),
  /** Opaque: the value from the previous page's `Link` header. */
  cursor: v.optional(
    v.pipe(
      v.string('Must be a string'),
      v.maxLength(200, 'Invalid cursor'),
      v.description("Opaque: where the previous page ended, as given in its `Link` header's next URL"),
    ),
  ),
});

export const ProjectResponse = v.object({
  id: integer,
  name: v.string(),
  description: v.nullable(v.string()),
  created_at: v.pipe(v.string(), v.isoTimestamp()),
  updated_at: v.pipe(v.string(), v.isoTimestamp()),
});
