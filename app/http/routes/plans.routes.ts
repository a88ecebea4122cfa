import * as v from 'valibot';
import { listFeatures } from '../../../core/plans/feature-catalogue';
import type { CreatePlan } from '../../../core/plans/create-plan.use-case';
import type { CurrentPlan, GetCurrentPlan } from '../../../core/plans/get-current-plan.use-case';
import type { ListPlans } from '../../../core/plans/list-plans.use-case';
import type { Plan } from '../../../core/plans/plan';
import type { SetDefaultPlan } from '../../../core/plans/set-default-plan.use-case';
import type { UpdatePlan } from '../../../core/plans/update-plan.use-case';
import { defineRoute, type AnyRoute } from '../route';
import {
  CreatePlanRequest,
  CurrentPlanResponse,
  FeatureResponse,
  ListPlansQuery,
  PlanIdParams,
  PlanResponse,
  UpdatePlanRequest,
} from '../schemas/plan.schemas';

export interface PlanUseCases {
  listPlans: ListPlans;
  getCurrentPlan: GetCurrentPlan;
  createPlan: CreatePlan;
  updatePlan: UpdatePlan;
  setDefaultPlan: SetDefaultPlan;
}

export const planResponse = (plan: Plan): v.InferOutput<typeof PlanResponse> => ({
  id: plan.id,
  name: plan.name,
  description: plan.description,
  features: plan.features,
  stripe_product_id: plan.stripeProductId,
  is_default: plan.isDefault,
  is_active: plan.isActive,
  created_at: plan.createdAt.toISOString(),
  updated_at: plan.updatedAt.toISOString(),
});

const currentPlanResponse = (current: CurrentPlan): v.InferOutput<typeof CurrentPlanResponse> => ({
  plan: planResponse(current.plan),
  subscription: current.subscription && {
    status: current.subscription.status,
    current_period_end: current.subscription.currentPeriodEnd?.toISOString() ?? null,
    cancel_at_period_end: current.subscription.cancelAtPeriodEnd,
  },
  period: { start: current.period.start.toISOString(), end: current.period.end.toISOString() },
  usage: current.usage as v.InferOutput<typeof CurrentPlanResponse>['usage'],
});

const TAG = 'Plans';

export function planRoutes(useCases: PlanUseCases): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/plans',
      tag: TAG,
      operationId: 'listPlans',
      summary: 'List the active plans by id; `include_inactive=true` (sys_admin only) adds the retired ones',
      description: 'Active plans, ordered by id. `include_inactive=true` adds retired plans, for a `sys_admin` only (anyone else: 403 `ACCESS_DENIED`).',
      access: 'readonly',
      apiKeys: 'accepted',
      query: ListPlansQuery,
      responses: { 200: { description: 'The plans', schema: v.array(PlanResponse) } },
      handler: async ({ caller, query }) => ({
        status: 200,
        body: (await useCases.listPlans.execute(caller, { includeInactive: query.include_inactive ?? false })).map(planResponse),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/plans/current',
      tag: TAG,
      operationId: 'getCurrentPlan',
      summary: "The caller's organization's effective plan, subscription, usage period and usage of every feature",
      description: "The organization's effective plan (its subscription's product while `active`, `trialing` or `past_due`, else the default plan), the subscription, the usage period (the subscription's current period, else the UTC calendar month; half-open) and, per feature, its limit and use.",
      access: 'readonly',
      apiKeys: 'accepted',
      responses: { 200: { description: 'The current plan and usage', schema: CurrentPlanResponse } },
      handler: async ({ caller }) => ({ status: 200, body: currentPlanResponse(await useCases.getCurrentPlan.execute(caller)) }),
    }),
    defineRoute({
      method: 'get',
      path: '/plans/features',
      tag: TAG,
      operationId: 'listPlanFeatures',
      summary: 'The feature catalogue: every key a plan can set, its kind, default and label',
      description: 'Every feature a plan can set: `limit` (records that may exist at once), `metered` (use per period) or `flag`; -1 means unlimited.',
      access: 'readonly',
      apiKeys: 'accepted',
      responses: { 200: { description: 'The catalogue, in declaration order', schema: v.array(FeatureResponse) } },
      handler: async () => ({ status: 200, body: listFeatures() }),
    }),
    defineRoute({
      method: 'post',
      path: '/plans',
      tag: TAG,
      operationId: 'createPlan',
      summary: 'Create a plan (active, not the default); omitted features follow the catalogue default',
      description: 'Names are unique case-insensitively and a Stripe product is sold as one plan (409 `CONFLICT`). Unknown features, values of the wrong kind and negatives other than -1: 422.',
      access: 'sys_admin',
      apiKeys: 'refused',
      body: CreatePlanRequest,
      responses: { 201: { description: 'The new plan', schema: PlanResponse } },
      errors: ['CONFLICT'],
      handler: async ({ caller, body }) => ({
        status: 201,
        body: planResponse(
          await useCases.createPlan.execute(caller, {
            name: body.name,
            description: body.description ?? null,
            features: body.features,
            stripeProductId: body.stripe_product_id ?? null,
          }),
        ),
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/plans/{plan_id}',
      tag: TAG,
      operationId: 'updatePlan',
      summary: 'Change a plan; omitted fields keep their value and `features` merges key by key',
      description: 'Omitted fields keep their value; `features` merges key by key. Deactivating the default plan, a duplicate name or product: 409 `CONFLICT`.',
      access: 'sys_admin',
      apiKeys: 'refused',
      params: PlanIdParams,
      body: UpdatePlanRequest,
      responses: { 200: { description: 'The updated plan', schema: PlanResponse } },
      errors: ['RESOURCE_NOT_FOUND', 'CONFLICT'],
      handler: async ({ caller, params, body }) => ({
        status: 200,
        body: planResponse(
          await useCases.updatePlan.execute(caller, {
            id: params.plan_id,
            ...(body.name === undefined ? {} : { name: body.name }),
            ...(body.description === undefined ? {} : { description: body.description }),
            ...(body.features === undefined ? {} : { features: body.features }),
            ...(body.stripe_product_id === undefined ? {} : { stripeProductId: body.stripe_product_id }),
            ...(body.is_active === undefined ? {} : { isActive: body.is_active }),
          }),
        ),
      }),
    }),
    defineRoute({
      method: 'post',
      path: '/plans/{plan_id}/default',
      tag: TAG,
      operationId: 'setDefaultPlan',
      summary: 'Make an active plan the default; the previous default stops being it',
      description: 'Exactly one active plan is the default: the previous default stops being it in the same transaction. An inactive plan: 409 `CONFLICT`.',
      access: 'sys_admin',
      apiKeys: 'refused',
      params: PlanIdParams,
      responses: { 200: { description: 'The new default plan', schema: PlanResponse } },
      errors: ['RESOURCE_NOT_FOUND', 'CONFLICT'],
      handler: async ({ caller, params }) => ({ status: 200, body: planResponse(await useCases.setDefaultPlan.execute(caller, { id: params.plan_id })) }),
    }),
  ];
}
