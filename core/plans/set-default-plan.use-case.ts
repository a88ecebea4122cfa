import type { Caller } from '../access/caller';
import { resourceNotFound } from '../shared/domain-error';
import type { Plan } from './plan';
import { assertMayManagePlans, planConflict } from './plan-access';
import type { PlansDeps } from './plans-deps';

/** Makes an active plan the default; the previous default stops being it in the same transaction. */
export class SetDefaultPlan {
  constructor(private readonly deps: Pick<PlansDeps, 'plans' | 'clock'>) {}

  async execute(caller: Caller, input: { id: number }): Promise<Plan> {
    assertMayManagePlans(caller);
    const written = await this.deps.plans.setDefault(input.id, this.deps.clock.now());
    if (!written) throw resourceNotFound('plan', input.id);
    if ('conflict' in written) throw planConflict(written.conflict);
    return written.plan;
  }
}
