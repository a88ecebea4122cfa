import type { Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import { resourceNotFound } from '../shared/domain-error';
import type { Page, PageRequest } from '../shared/list-page';
import type { AuditEvent } from './audit-event';
import type { AuditFilter } from './audit-event-repository.port';
import type { AuditDeps } from './audit-deps';
import { readAuditPage } from './audit-page';

/** Any organization's audit log, as `ListAuditEvents` reads the caller's own: sys_admin only. */
export class ListOrganizationAuditEvents {
  constructor(private readonly deps: Pick<AuditDeps, 'events' | 'organizations'>) {}

  async execute(caller: Caller, input: { organizationId: number; filter: AuditFilter; page: PageRequest }): Promise<Page<AuditEvent>> {
    requireRole(caller, 'sys_admin');
    if (!(await this.deps.organizations.exists(input.organizationId))) throw resourceNotFound('organization', input.organizationId);
    return readAuditPage(this.deps.events, input.organizationId, input.filter, input.page);
  }
}
