import type { AuditDeps } from '../../core/audit/audit-deps';
import type { NewAuditEvent } from '../../core/audit/audit-event';
import { ExportAuditEvents } from '../../core/audit/export-audit-events.use-case';
import { ListAuditEvents } from '../../core/audit/list-audit-events.use-case';
import { ListOrganizationAuditEvents } from '../../core/audit/list-organization-audit-events.use-case';
import { PruneAuditEvents } from '../../core/audit/prune-audit-events.use-case';
import { organizationsHarness, type OrganizationsHarness } from './organizations';

export interface AuditHarness extends OrganizationsHarness {
  auditDeps: AuditDeps;
  list: ListAuditEvents;
  listOrganization: ListOrganizationAuditEvents;
  exportEvents: ExportAuditEvents;
  prune: PruneAuditEvents;
  /** Records an event straight into the log (no change behind it): what the reading side is tested on. */
  anEvent(organizationId: number, overrides?: Partial<NewAuditEvent>): Promise<void>;
}

/** The audit use cases over the in-memory log of the organizations harness, retention 365 days. */
export function auditHarness(): AuditHarness {
  const h = organizationsHarness();
  const auditDeps: AuditDeps = {
    audit: h.auditLog,
    events: h.auditLog,
    organizations: { exists: async (id) => (await h.ports.organizations.findById(id)) !== null },
    clock: h.clock,
    settings: { retentionDays: 365 },
  };
  return {
    ...h,
    auditDeps,
    list: new ListAuditEvents(auditDeps),
    listOrganization: new ListOrganizationAuditEvents(auditDeps),
    exportEvents: new ExportAuditEvents(auditDeps),
    prune: new PruneAuditEvents(auditDeps),
    anEvent: (organizationId, overrides = {}) =>
      h.auditLog.record({
        organizationId,
        action: 'logout',
        actor: { type: 'user', id: 1 },
        target: null,
        origin: { ip: null, userAgent: null },
        details: {},
        ...overrides,
      }),
  };
}
