import { defineEntity, p } from '@mikro-orm/core';
import type { FeatureMap } from '../../../core/plans/feature-catalogue';

/**
 * The plans. `features` holds only the features a plan sets (jsonb); the catalogue default
 * applies to the rest when read. The indexes and the check keep the invariants every adapter
 * promises: names unique case-insensitively, a product sold as one plan, at most one default,
 * and the default active (exactly one default: the plans migration seeds it, and the only way
 * to move it, set-default, clears the old one before setting the new one).
 */
export const PlanSchema = defineEntity({
  name: 'Plan',
  tableName: 'plan',
  indexes: [
    { name: 'plan_name_lower_unique', expression: 'create unique index "plan_name_lower_unique" on "plan" (lower("name"))' },
    { name: 'plan_one_default', expression: 'create unique index "plan_one_default" on "plan" ("is_default") where "is_default"' },
  ],
  checks: [{ name: 'plan_default_is_active', expression: '"is_active" or not "is_default"' }],
  properties: {
    id: p.integer().primary().autoincrement(),
    name: p.string().length(100),
    description: p.text().nullable(),
    features: p.json<FeatureMap>().columnType('jsonb'),
    stripeProductId: p.string().length(255).nullable().unique('plan_stripe_product_id_unique'),
    isDefault: p.boolean(),
    isActive: p.boolean(),
    createdAt: p.datetime().columnType('timestamptz(3)'),
    updatedAt: p.datetime().columnType('timestamptz(3)'),
  },
});
