import type { Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import type { AiDeps } from './ai-deps';
import type { TopUser } from './usage-log.port';

const TOP_USERS = 10;

/** The organization's ten heaviest AI users in the current period (org_admin). */
export class ListTopUsers {
  constructor(private readonly deps: Pick<AiDeps, 'plans' | 'usageLog'>) {}

  async execute(caller: Caller): Promise<TopUser[]> {
    requireRole(caller, 'org_admin');
    const { period } = await this.deps.plans.forOrganization(caller.organizationId);
    return this.deps.usageLog.topUsers(caller.organizationId, period, TOP_USERS);
  }
}
