import { ContainerModule, type ResolutionContext } from 'inversify';
import { TOKENS } from './tokens';
import { planRoutes } from '../http/routes/plans.routes';
import { PostgresPlanRepository } from '../../adapters/postgres/postgres-plan-repository';
import { CreatePlan } from '../../core/plans/create-plan.use-case';
import { GetCurrentPlan } from '../../core/plans/get-current-plan.use-case';
import { ListPlans } from '../../core/plans/list-plans.use-case';
import type { PlansDeps } from '../../core/plans/plans-deps';
import { LimitQuota } from '../../core/plans/quota';
import { SetDefaultPlan } from '../../core/plans/set-default-plan.use-case';
import { UpdatePlan } from '../../core/plans/update-plan.use-case';

/**
 * Plans and quotas: the PostgreSQL plans; one live counter per `limit` feature, each from the
 * repository of what it counts; the quota the contexts with limited records create through; the
 * use cases and the routes. The use of each `metered` feature (MeteredUsageReaders) is bound by the
 * context that records it: `token_limit` by the AI copilot.
 */
export function plansModule(): ContainerModule {
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.PlanRepository).toDynamicValue((ctx) => new PostgresPlanRepository(ctx.get(TOKENS.Database)));

    const deps = (ctx: ResolutionContext): PlansDeps => ({
      plans: ctx.get(TOKENS.PlanRepository),
      subscriptions: ctx.get(TOKENS.SubscriptionRepository),
      counters: {
        max_notes: (organizationId) => ctx.get(TOKENS.NoteRepository).countByOrganization(organizationId),
        max_projects: (organizationId) => ctx.get(TOKENS.ProjectRepository).countByOrganization(organizationId),
      },
      metered: ctx.get(TOKENS.MeteredUsageReaders),
      clock: ctx.get(TOKENS.Clock),
    });
    bind(TOKENS.Entitlements).toDynamicValue((ctx) => new LimitQuota(deps(ctx)));
    bind(TOKENS.PlanUseCases).toDynamicValue((ctx) => {
      const plansDeps = deps(ctx);
      return {
        listPlans: new ListPlans(plansDeps),
        getCurrentPlan: new GetCurrentPlan(plansDeps),
        createPlan: new CreatePlan(plansDeps),
        updatePlan: new UpdatePlan(plansDeps),
        setDefaultPlan: new SetDefaultPlan(plansDeps),
      };
    });

    bind(TOKENS.Routes).toDynamicValue((ctx) => planRoutes(ctx.get(TOKENS.PlanUseCases)));
  });
}
