import type { FeatureMap, PlanFeatures } from './feature-catalogue';

/**
 * What an organization may do. Exactly one active plan is the default: every organization
 * without a counting subscription is on it. Plans are shared by all organizations; none is
 * created per organization.
 */
export interface Plan {
  id: number;
  /** Unique, compared case-insensitively. */
  name: string;
  description: string | null;
  /** Every feature, the catalogue default filling what the plan does not set. */
  features: PlanFeatures;
  /** The payment provider's product this plan is sold as; unique when set. */
  stripeProductId: string | null;
  isDefault: boolean;
  /** An inactive plan is not offered; organizations subscribed to its product keep it. */
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewPlan {
  name: string;
  description: string | null;
  /** Only the features the plan sets; the others follow the catalogue default. */
  features: FeatureMap;
  stripeProductId: string | null;
  /** From the Clock; also the initial `updatedAt`. */
  createdAt: Date;
}

/** `undefined` keeps a field; `features` is merged key by key into the stored map. */
export interface PlanPatch {
  name?: string;
  description?: string | null;
  features?: FeatureMap;
  stripeProductId?: string | null;
  isActive?: boolean;
  updatedAt: Date;
}
