import type { Caller } from '../access/caller';
import { resourceNotFound } from '../shared/domain-error';
import type { Plan, PlanPatch } from './plan';
import { assertMayManagePlans, planConflict } from './plan-access';
import { featuresFromInput } from './plan-features-input';
import type { PlansDeps } from './plans-deps';

/**
 * Omitted fields keep their value. `features` merges key by key (`{max_notes: 5}` changes only
 * that feature); `stripeProductId: null` unlinks the product; `description: null` clears it.
 */
export interface UpdatePlanInput {
  id: number;
  name?: string;
  description?: string | null;
  features?: unknown;
  stripeProductId?: string | null;
  isActive?: boolean;
}

export class UpdatePlan {
  constructor(private readonly deps: Pick<PlansDeps, 'plans' | 'clock'>) {}

  async execute(caller: Caller, input: UpdatePlanInput): Promise<Plan> {
    assertMayManagePlans(caller);
    const patch: PlanPatch = { updatedAt: this.deps.clock.now() };
    if (input.features !== undefined) patch.features = featuresFromInput(input.features);
    if (input.name !== undefined) patch.name = input.name;
    if (input.description !== undefined) patch.description = input.description;
    if (input.stripeProductId !== undefined) patch.stripeProductId = input.stripeProductId;
    if (input.isActive !== undefined) patch.isActive = input.isActive;
    const written = await this.deps.plans.update(input.id, patch);
    if (!written) throw resourceNotFound('plan', input.id);
    if ('conflict' in written) throw planConflict(written.conflict);
    return written.plan;
  }
}
