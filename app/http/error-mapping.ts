import type { ErrorCode } from '../../core/shared/domain-error';

/** The only table from domain error codes to HTTP statuses. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  MALFORMED_REQUEST: 400,
  INVALID_TOKEN: 400,
  INVALID_CURRENT_PASSWORD: 400,
  UNAUTHORIZED: 401,
  ACCOUNT_SUSPENDED: 401,
  INVALID_CREDENTIALS: 401,
  ACCESS_DENIED: 403,
  EMAIL_NOT_VERIFIED: 403,
  QUOTA_EXCEEDED: 403,
  FEATURE_DISABLED: 403,
  RESOURCE_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  EMAIL_ALREADY_EXISTS: 409,
  LAST_ORG_ADMIN: 409,
  PAYLOAD_TOO_LARGE: 413,
  VALIDATION_ERROR: 422,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

export interface ErrorResponse {
  code: ErrorCode;
  message: string;
  error_id: string;
  details: Record<string, unknown>;
}
