import type { Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import type { Page, PageRequest } from '../shared/list-page';
import type { AuditEvent } from './audit-event';
import type { AuditFilter } from './audit-event-repository.port';
import type { AuditDeps } from './audit-deps';
import { readAuditPage } from './audit-page';

/** The caller's organization's audit log, newest first, one page at a time; org_admin and above. */
export class ListAuditEvents {
  constructor(private readonly deps: Pick<AuditDeps, 'events'>) {}

  async execute(caller: Caller, input: { filter: AuditFilter; page: PageRequest }): Promise<Page<AuditEvent>> {
    requireRole(caller, 'org_admin');
    return readAuditPage(this.deps.events, caller.organizationId, input.filter, input.page);
  }
}
