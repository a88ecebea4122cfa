import { DomainError, type ErrorCode } from '../../core/shared/domain-error';
import type { HttpError, HttpErrorCode } from './http-error';

/** Domain codes the API answers under one of its own codes (see `toApiError`). */
export type TranslatedCode = 'SIGNUP_CLOSED' | 'INVALID_WEBHOOK_SIGNATURE' | 'INVALID_WEBHOOK_EVENT' | 'TOO_MANY_ATTEMPTS' | 'INVALID_PASSKEY_RESPONSE';

/** Every `code` an ErrorResponse can carry: the domain's own, plus the edge's request refusals. */
export type ApiErrorCode = Exclude<ErrorCode, TranslatedCode> | HttpErrorCode;

/** The only table from error codes to HTTP statuses. Its key order is the OpenAPI enum's. */
export const STATUS_BY_CODE: Record<ApiErrorCode, number> = {
  MALFORMED_REQUEST: 400,
  INVALID_TOKEN: 400,
  INVALID_CURRENT_PASSWORD: 400,
  UNAUTHORIZED: 401,
  ACCOUNT_SUSPENDED: 401,
  INVALID_CREDENTIALS: 401,
  INVALID_MFA_CODE: 401,
  ACCESS_DENIED: 403,
  EMAIL_NOT_VERIFIED: 403,
  QUOTA_EXCEEDED: 403,
  FEATURE_DISABLED: 403,
  MFA_REQUIRED: 403,
  RESOURCE_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  EMAIL_ALREADY_EXISTS: 409,
  LAST_ORG_ADMIN: 409,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_ERROR: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

export interface ApiError {
  code: ApiErrorCode;
  message: string;
  details: Record<string, unknown>;
  /** When not the code's status in STATUS_BY_CODE (see `toApiError`). */
  status?: number;
}

export interface ErrorResponse extends ApiError {
  error_id: string;
}

/**
 * What the client is told. A closed signup is answered exactly like an unknown route, so a B2B
 * deployment does not reveal that the path exists; a webhook that does not verify or cannot be
 * read is a request the client must not repeat as is; a use case's refused rate limit is a 429,
 * like the router's own. A passkey registration response that does not verify is well-formed
 * input the server refused: 400 VALIDATION_ERROR naming `body.response`, not the 422 of a
 * request that fails its schema.
 */
export function toApiError(error: DomainError | HttpError): ApiError {
  switch (error.code) {
    case 'SIGNUP_CLOSED':
      return { code: 'NOT_FOUND', message: 'No such route', details: {} };
    case 'INVALID_WEBHOOK_SIGNATURE':
    case 'INVALID_WEBHOOK_EVENT':
      return { code: 'MALFORMED_REQUEST', message: error.message, details: error.details };
    case 'TOO_MANY_ATTEMPTS':
      return { code: 'RATE_LIMITED', message: error.message, details: error.details };
    case 'INVALID_PASSKEY_RESPONSE':
      return { code: 'VALIDATION_ERROR', status: 400, message: error.message, details: { 'body.response': error.message } };
    default:
      return { code: error.code, message: error.message, details: error.details };
  }
}

const TRANSLATED = new Set<string>(['SIGNUP_CLOSED', 'INVALID_WEBHOOK_SIGNATURE', 'INVALID_WEBHOOK_EVENT', 'TOO_MANY_ATTEMPTS', 'INVALID_PASSKEY_RESPONSE'] satisfies TranslatedCode[]);

/**
 * The code and status a route's documented error is answered with: a translated domain code as
 * `toApiError` answers it (a failed passkey registration: VALIDATION_ERROR under 400), any
 * other code under its status in STATUS_BY_CODE. The API description reads its errors here.
 */
export function answeredAs(code: ApiErrorCode | TranslatedCode): { code: ApiErrorCode; status: number } {
  if (!TRANSLATED.has(code)) return { code: code as ApiErrorCode, status: STATUS_BY_CODE[code as ApiErrorCode] };
  const answer = toApiError(new DomainError(code as TranslatedCode, ''));
  return { code: answer.code, status: answer.status ?? STATUS_BY_CODE[answer.code] };
}
