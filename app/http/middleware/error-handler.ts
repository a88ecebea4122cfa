import { randomUUID } from 'node:crypto';
import type { Context } from 'koa';
import { DomainError } from '../../../core/shared/domain-error';
import { HttpError } from '../http-error';
import { setBody } from '../json-body';
import { STATUS_BY_CODE, toApiError, type ApiError, type ErrorResponse } from '../error-mapping';

/**
 * The single place where failures become HTTP responses (the edge middleware, app/http/middleware/edge.ts,
 * calls it for whatever the layers below it threw). Domain errors and the edge's own
 * refusals map through `toApiError` and STATUS_BY_CODE; an unreachable dependency becomes 503;
 * anything else is logged with its error id and answered as a generic 500 that leaks nothing.
 */
export function answerError(ctx: Context, error: unknown, isDependencyDown: (error: unknown) => boolean): void {
  const api = toResponse(error, isDependencyDown);
  const status = api.status ?? STATUS_BY_CODE[api.code];
  const body: ErrorResponse = { code: api.code, message: api.message, error_id: randomUUID(), details: api.details };
  const fields = { error_id: body.error_id, code: body.code, status };
  if (api.code === 'SERVICE_UNAVAILABLE') {
    // Expected while a dependency is down, and then on every request: one warn line each,
    // naming the cause without a stack, so an outage does not bury the log in traces.
    ctx.state.log?.warn({ ...fields, cause: brief(error) }, api.message);
  } else if (status >= 500) {
    ctx.state.log?.error({ ...fields, err: describe(error) }, api.code === 'INTERNAL_ERROR' ? 'unhandled error' : api.message);
  } else {
    ctx.state.log?.info(fields, api.message);
  }
  const retryAfter = api.details.retry_after;
  if (typeof retryAfter === 'number') ctx.set('Retry-After', String(retryAfter));
  if (api.code === 'METHOD_NOT_ALLOWED' && Array.isArray(api.details.allow)) {
    ctx.set('Allow', api.details.allow.join(', '));
  }
  ctx.status = status;
  setBody(ctx, body);
}

function toResponse(error: unknown, isDependencyDown: (error: unknown) => boolean): ApiError {
  if (error instanceof DomainError || error instanceof HttpError) return toApiError(error);
  if (isDependencyDown(error)) {
    return { code: 'SERVICE_UNAVAILABLE', message: 'A required service is unavailable, try again shortly', details: { retry_after: 5 } };
  }
  return { code: 'INTERNAL_ERROR', message: 'An unexpected error occurred', details: {} };
}

/** What of an unexpected error goes to the log: never its own enumerable fields (a library's
 * error may carry the raw request body, which may hold a password). */
function describe(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { type: error.name, message: error.message, ...(code !== undefined ? { code } : {}), stack: error.stack };
}

/** The cause of a 503 in one line: its type, code and message. */
function brief(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return `${error.name}${code !== undefined ? ` ${String(code)}` : ''}: ${error.message}`;
}
