import type { Caller } from '../access/caller';
import type { Plan } from './plan';
import { assertMayManagePlans } from './plan-access';
import type { PlansDeps } from './plans-deps';

export interface ListPlansInput {
  /** Only a system administrator may see inactive plans. */
  includeInactive: boolean;
}

export class ListPlans {
  constructor(private readonly deps: Pick<PlansDeps, 'plans'>) {}

  /** Ordered by id. */
  async execute(caller: Caller, input: ListPlansInput): Promise<Plan[]> {
    if (input.includeInactive) assertMayManagePlans(caller);
    return this.deps.plans.list({ includeInactive: input.includeInactive });
  }
}
