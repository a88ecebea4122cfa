import type { NewPlan, Plan, PlanPatch } from './plan';

/** Why a plan write was refused; the stored plans are unchanged. */
export type PlanConflict =
  /** Another plan has this name (case-insensitively). */
  | 'name-taken'
  /** Another plan is sold as this provider product. */
  | 'product-taken'
  /** The default plan cannot be deactivated, and an inactive plan cannot become the default. */
  | 'default-inactive';

export type PlanWrite = { plan: Plan } | { conflict: PlanConflict };

/**
 * The plans. Invariant kept by every adapter: exactly one plan is the default, and it is active
 * (the first migration seeds it; no method can remove it).
 */
export interface PlanRepository {
  /** Ordered by id; inactive plans only when asked. */
  list(options: { includeInactive: boolean }): Promise<Plan[]>;
  findById(id: number): Promise<Plan | null>;
  findDefault(): Promise<Plan>;
  /** The plan sold as this provider product, active or not; null when none is. */
  findByStripeProduct(productId: string): Promise<Plan | null>;
  create(plan: NewPlan): Promise<PlanWrite>;
  /** Null when no such plan. */
  update(id: number, patch: PlanPatch): Promise<PlanWrite | null>;
  /**
   * Makes the plan the default and the previous default an ordinary plan, atomically. Null when no
   * such plan; `default-inactive` when it is inactive. Setting the current default is a no-op
   * that still stamps `updatedAt`.
   */
  setDefault(id: number, updatedAt: Date): Promise<PlanWrite | null>;
}
