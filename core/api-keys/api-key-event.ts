import type { Caller } from '../access/caller';
import { auditActor, auditOrigin } from '../audit/audit-actor';
import type { NewAuditEvent } from '../audit/audit-event';
import type { ApiKey } from './api-key';

/** The audit event of a key's creation or revocation: its name and role, never the key nor its hash. */
export function apiKeyEvent(caller: Caller, action: 'api_key.created' | 'api_key.revoked', key: Pick<ApiKey, 'id' | 'name' | 'role'>): NewAuditEvent {
  return {
    organizationId: caller.organizationId,
    action,
    actor: auditActor(caller),
    target: { type: 'api_key', id: String(key.id) },
    origin: auditOrigin(caller),
    details: { name: key.name, role: key.role },
  };
}
