import type { Clock } from '../shared/clock.port';
import type { AuditLog } from './audit-log.port';
import type { AuditEventRepository } from './audit-event-repository.port';

/** What an audit use case is built from; each takes the `Pick` it needs as its one `deps`. */
export interface AuditDeps {
  /** Where other contexts record; audit's own use cases only read and prune. */
  audit: AuditLog;
  events: AuditEventRepository;
  organizations: AuditedOrganizations;
  clock: Clock;
  settings: AuditSettings;
}

/** Which organizations exist: a sys_admin asking for an unknown one's log is told so. */
export interface AuditedOrganizations {
  exists(organizationId: number): Promise<boolean>;
}

export interface AuditSettings {
  /** Events are kept this long after they occurred (APP_AUDIT_RETENTION_DAYS). */
  retentionDays: number;
}
