import * as v from 'valibot';

/** Response shapes of the system routes; the OpenAPI description is built from these. */

const checkStatus = v.picklist(['ok', 'down', 'disabled']);

export const HealthResponse = v.object({
  status: v.picklist(['ok', 'unavailable']),
  checks: v.object({ database: checkStatus, redis: checkStatus }),
});

export const PongResponse = v.object({ message: v.literal('pong') });

/** `GET /`: where a newcomer who only knows the base URL goes next. */
export const ApiIndexResponse = v.object({
  name: v.string(),
  version: v.string(),
  docs: v.pipe(v.string(), v.description('The human-readable API reference')),
  openapi: v.pipe(v.string(), v.description('This API as an OpenAPI 3.1 description')),
  health: v.pipe(v.string(), v.description('The readiness probe')),
});
