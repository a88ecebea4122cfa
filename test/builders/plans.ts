import { InMemoryNoteRepository } from '../../adapters/in-memory/in-memory-note-repository';
import { InMemoryPlanRepository } from '../../adapters/in-memory/in-memory-plan-repository';
import { InMemoryProjectRepository } from '../../adapters/in-memory/in-memory-project-repository';
import { InMemorySubscriptionRepository } from '../../adapters/in-memory/in-memory-subscription-repository';
import type { UserCaller } from '../../core/access/caller';
import type { RoleName } from '../../core/access/role';
import type { SubscriptionState } from '../../core/billing/subscription';
import { EffectivePlanResolver } from '../../core/plans/effective-plan';
import type { LiveCounters, MeteredUsageReaders, PlansDeps } from '../../core/plans/plans-deps';
import type { Plan } from '../../core/plans/plan';
import { LimitQuota } from '../../core/plans/quota';
import { accountsHarness, type AccountsHarness } from './accounts';

export interface PlansHarness extends AccountsHarness {
  plans: InMemoryPlanRepository;
  subscriptions: InMemorySubscriptionRepository;
  notes: InMemoryNoteRepository;
  projects: InMemoryProjectRepository;
  resolver: EffectivePlanResolver;
  /** Everything a plans use case is built from. */
  plansDeps: PlansDeps;
  counters: LiveCounters;
  /** Token use per organization, for `token_limit`; tests set it directly. */
  tokensUsed: Map<number, number>;
  metered: MeteredUsageReaders;
  quota: LimitQuota;
  /** A caller with `role` in a new organization (or `organizationId`). */
  aCaller(role?: RoleName, organizationId?: number): Promise<UserCaller>;
  plan(name: string): Promise<Plan>;
  /** Links `plan` to `productId` and subscribes the organization to it with `state` overrides. */
  subscribe(organizationId: number, planName: string, state?: Partial<SubscriptionState>): Promise<void>;
}

/** The plans, notes and quota ports on one in-memory store, seeded with Free/Professional/Premium. */
export function plansHarness(): PlansHarness {
  const h = accountsHarness();
  const plans = new InMemoryPlanRepository(h.store);
  const subscriptions = new InMemorySubscriptionRepository(h.store);
  const notes = new InMemoryNoteRepository(h.store);
  const projects = new InMemoryProjectRepository(h.store);
  const counters: LiveCounters = {
    max_notes: (organizationId) => notes.countByOrganization(organizationId),
    max_projects: (organizationId) => projects.countByOrganization(organizationId),
  };
  const tokensUsed = new Map<number, number>();
  const metered: MeteredUsageReaders = { token_limit: async (organizationId) => tokensUsed.get(organizationId) ?? 0 };
  const deps: PlansDeps = { plans, subscriptions, counters, metered, clock: h.clock };
  const resolver = new EffectivePlanResolver(deps);
  const quota = new LimitQuota(deps);
  const plan = async (name: string) => (await plans.list({ includeInactive: true })).find((p) => p.name === name)!;
  return {
    ...h,
    plans,
    subscriptions,
    notes,
    projects,
    resolver,
    plansDeps: deps,
    counters,
    tokensUsed,
    metered,
    quota,
    async aCaller(role = 'member', organizationId) {
      const user = await h.aUser({ role, ...(organizationId === undefined ? {} : { organizationId }) });
      return { userId: user.id, organizationId: user.organizationId, role, sessionId: 1, mfaSatisfied: true, kind: 'user' as const };
    },
    plan,
    async subscribe(organizationId, planName, state = {}) {
      const target = await plan(planName);
      const productId = target.stripeProductId ?? `prod_${planName.toLowerCase()}`;
      if (!target.stripeProductId) await plans.update(target.id, { stripeProductId: productId, updatedAt: h.clock.now() });
      await subscriptions.applyState(organizationId, {
        // A customer and a subscription belong to one organization each.
        customerId: `cus_${organizationId}`,
        subscriptionId: `sub_${organizationId}`,
        status: 'active',
        priceId: 'price_1',
        productId,
        currentPeriodStart: new Date('2026-11-05T08:00:00.000Z'),
        currentPeriodEnd: new Date('2026-12-05T08:00:00.000Z'),
        cancelAtPeriodEnd: false,
        eventAt: h.clock.now(),
        updatedAt: h.clock.now(),
        ...state,
      });
    },
  };
}

/**
 * A quota on the seeded plans, for tests of features whose quota is not what they test: the
 * default plan's `max_projects` is unlimited, so `take` runs the create at once.
 */
export function seededPlansQuota(): LimitQuota {
  return plansHarness().quota;
}
