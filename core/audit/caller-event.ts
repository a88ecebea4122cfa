import type { Caller } from '../access/caller';
import { auditActor, auditOrigin } from './audit-actor';
import type { AuditAction, AuditTarget, NewAuditEvent } from './audit-event';

/**
 * The event of a change an authenticated request made: the caller is its actor and the request its
 * origin. It goes in the caller's organization unless `organizationId` names the one changed (a
 * sys_admin acting on another organization).
 */
export function eventBy(
  caller: Caller,
  event: { action: AuditAction; target: AuditTarget | null; details: Record<string, unknown>; organizationId?: number },
): NewAuditEvent {
  return {
    organizationId: event.organizationId ?? caller.organizationId,
    action: event.action,
    actor: auditActor(caller),
    target: event.target,
    origin: auditOrigin(caller),
    details: event.details,
  };
}
