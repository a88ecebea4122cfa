import type { Caller } from '../access/caller';
import { requireRole } from '../access/require-role';
import type { Period } from '../plans/usage-period';
import type { AiDeps } from './ai-deps';

export interface UsageSummary {
  period: Period;
  /** The plan's `token_limit` (-1 unlimited). */
  tokenLimit: number;
  allotmentUsed: number;
  creditBalance: number;
  overageTokens: number;
  /** What the caller's own calls used in the period; 0 for an API key, which makes no copilot calls. */
  myTokens: number;
}

/** The organization's AI usage in the current period, and the caller's share (member). */
export class GetUsageSummary {
  constructor(private readonly deps: Pick<AiDeps, 'plans' | 'capacity' | 'usageLog'>) {}

  async execute(caller: Caller): Promise<UsageSummary> {
    requireRole(caller, 'member');
    const { plan, period } = await this.deps.plans.forOrganization(caller.organizationId);
    const [capacity, myTokens] = await Promise.all([
      this.deps.capacity.snapshot(caller.organizationId, period),
      caller.kind === 'user' ? this.deps.usageLog.userTokens(caller.organizationId, caller.userId, period) : 0,
    ]);
    return {
      period,
      tokenLimit: plan.features.token_limit,
      allotmentUsed: capacity.allotmentUsed,
      creditBalance: capacity.creditBalance,
      overageTokens: capacity.overageTokens,
      myTokens,
    };
  }
}
