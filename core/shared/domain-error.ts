/**
 * Expected failures are thrown as DomainError with a stable `code`. Core speaks only of the
 * domain: it never picks an HTTP status or names a request location. `VALIDATION_ERROR` details
 * are keyed by fields of the use case's input (`password`, `cursor`); the HTTP edge
 * (app/http/error-mapping.ts) maps codes to statuses and fields to where the request carried them.
 */
export type ErrorCode =
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'ACCOUNT_SUSPENDED'
  | 'LAST_ORG_ADMIN'
  | 'ACCESS_DENIED'
  | 'EMAIL_NOT_VERIFIED'
  | 'INVALID_CREDENTIALS'
  | 'RESOURCE_NOT_FOUND'
  | 'EMAIL_ALREADY_EXISTS'
  | 'INVALID_TOKEN'
  | 'INVALID_CURRENT_PASSWORD'
  /** A passkey registration whose browser response does not verify, or names a credential already registered. */
  | 'INVALID_PASSKEY_RESPONSE'
  /** Self-service signup is off (B2B): only invitations create accounts. */
  | 'SIGNUP_CLOSED'
  /** A provider callback whose signature is missing, wrong or too old. */
  | 'INVALID_WEBHOOK_SIGNATURE'
  /** A provider callback that is signed but not an event this service can read. */
  | 'INVALID_WEBHOOK_EVENT'
  /** A use case's own RateLimiter refused: too many attempts; `details.retry_after` in seconds. */
  | 'TOO_MANY_ATTEMPTS'
  | 'QUOTA_EXCEEDED'
  /** A TOTP or recovery code that is wrong, outside its window, or already used. */
  | 'INVALID_MFA_CODE'
  /** The organization requires a second factor and the caller has none yet. */
  | 'MFA_REQUIRED'
  /** The change conflicts with the current state (MFA already on, nothing pending to confirm). */
  | 'CONFLICT'
  | 'FEATURE_DISABLED'
  | 'CONFLICT'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_ERROR';

export type ErrorDetails = Record<string, unknown>;

export class DomainError extends Error {
  override readonly name = 'DomainError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A record that is missing, or belongs to another organization: the two are indistinguishable.
 * `resource` is the machine name clients read in `details`; the message names it in words
 * (`checkout_session` → "Checkout session"), or as `label` says where words are not enough.
 */
export const resourceNotFound = (resource: string, resourceId: number | string, label = capitalize(resource.replaceAll('_', ' '))) =>
  new DomainError('RESOURCE_NOT_FOUND', `${label} not found`, {
    resource,
    resource_id: resourceId,
  });

/** A required dependency (database, Redis, provider) cannot be reached right now. */
export const serviceUnavailable = (message = 'A required service is unavailable', retryAfterSeconds = 5) =>
  new DomainError('SERVICE_UNAVAILABLE', message, { retry_after: retryAfterSeconds });
