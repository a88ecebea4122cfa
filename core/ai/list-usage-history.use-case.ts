import type { Caller } from '../access/caller';
import { satisfies } from '../access/role';
import { requireRole } from '../access/require-role';
import { readPage, type Page, type PageRequest } from '../shared/list-page';
import type { AiDeps } from './ai-deps';
import type { UsageRecord } from './usage-record';

/** Usage records newest first: a member's own, or the whole organization's for an org_admin. */
export class ListUsageHistory {
  constructor(private readonly deps: Pick<AiDeps, 'usageLog'>) {}

  execute(caller: Caller, request: PageRequest): Promise<Page<UsageRecord>> {
    requireRole(caller, 'member');
    const userId = satisfies(caller.role, 'org_admin') ? null : caller.userId;
    return readPage(request, (window) => this.deps.usageLog.list(caller.organizationId, userId, window));
  }
}
