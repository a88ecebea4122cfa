import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import { DomainError, type ErrorCode } from '../../../core/shared/domain-error';
import { STATUS_BY_CODE, type ErrorResponse } from '../error-mapping';

/**
 * The single place where failures become HTTP responses. Domain errors map through
 * STATUS_BY_CODE; body-parser errors become 400/413; an unreachable dependency becomes 503;
 * anything else is logged with its error id and answered as a generic 500 that leaks nothing.
 */
export function errorHandler(isDependencyDown: (error: unknown) => boolean): Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (error) {
      const domain = toDomainError(error, isDependencyDown);
      const status = STATUS_BY_CODE[domain.code];
      const body: ErrorResponse = {
        code: domain.code,
        message: domain.message,
        error_id: randomUUID(),
        details: domain.details,
      };
      const fields = { error_id: body.error_id, code: body.code, status };
      if (status >= 500) {
        ctx.state.log?.error({ ...fields, err: describe(error) }, domain.code === 'INTERNAL_ERROR' ? 'unhandled error' : domain.message);
      } else {
        ctx.state.log?.info(fields, domain.message);
      }
      const retryAfter = domain.details.retry_after;
      if (typeof retryAfter === 'number') ctx.set('Retry-After', String(retryAfter));
      if (domain.code === 'METHOD_NOT_ALLOWED' && Array.isArray(domain.details.allow)) {
        ctx.set('Allow', domain.details.allow.join(', '));
      }
      ctx.status = status;
      ctx.body = body;
    }
  };
}

const HTTP_ERROR_CODES: Record<number, ErrorCode> = {
  400: 'MALFORMED_REQUEST',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'MALFORMED_REQUEST',
};

function toDomainError(error: unknown, isDependencyDown: (error: unknown) => boolean): DomainError {
  if (error instanceof DomainError) return error;
  if (isDependencyDown(error)) {
    return new DomainError('SERVICE_UNAVAILABLE', 'A required service is unavailable, try again shortly', { retry_after: 5 });
  }
  // Body-parser failures carry an http-errors status; they are the client's fault, not ours.
  const status = (error as { status?: unknown })?.status;
  if (typeof status === 'number' && HTTP_ERROR_CODES[status]) {
    const code = HTTP_ERROR_CODES[status]!;
    const message = code === 'PAYLOAD_TOO_LARGE' ? 'The request body is larger than 1 MiB' : 'The request body is not valid JSON';
    return new DomainError(code, message);
  }
  return new DomainError('INTERNAL_ERROR', 'An unexpected error occurred');
}

/** What of an unexpected error goes to the log: never its own enumerable fields (a body-parser
 * error, for one, carries the raw request body, which may hold a password). */
function describe(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = (error as { code?: unknown }).code;
  return { type: error.name, message: error.message, ...(code !== undefined ? { code } : {}), stack: error.stack };
}
