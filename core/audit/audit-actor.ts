import type { Caller } from '../access/caller';
import type { AuditAction, AuditActor, AuditOrigin, AuditTarget, NewAuditEvent } from './audit-event';

/** The origin of a change no request made (a job, the CLI, a provider's webhook). */
export const NO_ORIGIN: AuditOrigin = Object.freeze({ ip: null, userAgent: null });

/** The service itself, acting on its own (a webhook, a scheduled job). */
export const SYSTEM_ACTOR: AuditActor = Object.freeze({ type: 'system', id: null });

/** A member acting (or, for a failed sign-in, the member whose account was tried). */
export function userActor(userId: number): AuditActor {
  return { type: 'user', id: userId };
}

/** Who an authenticated request acts as, for the events its changes record: a member, or an organization API key. */
export function auditActor(caller: Caller): AuditActor {
  return caller.kind === 'user' ? userActor(caller.userId) : { type: 'api_key', id: caller.apiKeyId };
}

/** Where an authenticated request came from; NO_ORIGIN when no request was involved. */
export function auditOrigin(caller: Caller): AuditOrigin {
  // Copied: the edge's origin may be computed lazily, and an event keeps plain values.
  return caller.origin ? { ip: caller.origin.ip, userAgent: caller.origin.userAgent } : NO_ORIGIN;
}

/**
 * The event of a change an authenticated request made in its own organization: the caller as the
 * actor, the request's origin. What most audited use cases record.
 */
export function eventBy(caller: Caller, action: AuditAction, target: AuditTarget | null = null, details: Record<string, unknown> = {}): NewAuditEvent {
  return { organizationId: caller.organizationId, action, actor: auditActor(caller), target, origin: auditOrigin(caller), details };
}
