import type { Caller } from '../access/caller';
import type { Plan } from './plan';
import { assertMayManagePlans, planConflict } from './plan-access';
import { featuresFromInput } from './plan-features-input';
import type { PlansDeps } from './plans-deps';

/** Shapes validated at the edge (`name` trimmed 1..100); `features` is checked here, against the catalogue. */
export interface CreatePlanInput {
  name: string;
  description?: string | null;
  features?: unknown;
  stripeProductId?: string | null;
}

/** A new plan is active and not the default. Features it omits follow the catalogue default. */
export class CreatePlan {
  constructor(private readonly deps: Pick<PlansDeps, 'plans' | 'clock'>) {}

  async execute(caller: Caller, input: CreatePlanInput): Promise<Plan> {
    assertMayManagePlans(caller);
    const features = input.features === undefined ? {} : featuresFromInput(input.features);
    const written = await this.deps.plans.create({
      name: input.name,
      description: input.description ?? null,
      features,
      stripeProductId: input.stripeProductId ?? null,
      createdAt: this.deps.clock.now(),
    });
    if ('conflict' in written) throw planConflict(written.conflict);
    return written.plan;
  }
}
