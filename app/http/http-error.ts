import type { ErrorDetails } from '../../core/shared/domain-error';

/**
 * Refusals of the request itself, decided at the HTTP edge before or around any use case: an
 * unknown path or method, a body that is not JSON or too large, a spent rate limit. Core never
 * sees these words; it throws DomainError.
 */
export type HttpErrorCode =
  | 'MALFORMED_REQUEST'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RATE_LIMITED';

export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(
    readonly code: HttpErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }
}

export const noSuchRoute = () => new HttpError('NOT_FOUND', 'No such route');
