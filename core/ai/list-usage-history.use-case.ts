import type { Caller } from '../access/caller';
import { satisfies } from '../access/role';
import { requireRole } from '../access/require-role';
import { readPage, type Page, type PageRequest } from '../shared/list-page';
import type { AiDeps } from './ai-deps';
import type { UsageRecord } from './usage-record';

/**
 * Usage records newest first: a member's own, or the whole organization's for an org_admin (a
 * person or a key). A key below org_admin has no records of its own (the copilot refuses keys),
 * so its list is empty.
 */
export class ListUsageHistory {
  constructor(private readonly deps: Pick<AiDeps, 'usageLog'>) {}

  execute(caller: Caller, request: PageRequest): Promise<Page<UsageRecord>> {
    requireRole(caller, 'member');
    if (satisfies(caller.role, 'org_admin')) return readPage(request, (window) => this.deps.usageLog.list(caller.organizationId, null, window));
    if (caller.kind === 'api_key') return Promise.resolve({ items: [], nextCursor: null });
    const userId = caller.userId;
    return readPage(request, (window) => this.deps.usageLog.list(caller.organizationId, userId, window));
  }
}
