import { EntitySchema } from '@mikro-orm/core';

export interface PlanEntity {
  id: number;
  name: string;
  description?: string;
  features: Record<string, unknown>;
  stripeProductId?: string;
  isDefault: boolean;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * The plans. `features` holds only the features a plan sets (jsonb); the catalogue default
 * applies to the rest when read. The indexes and the check keep the invariants every adapter
 * promises: names unique case-insensitively, a product sold as one plan, at most one default,
 * and the default active (exactly one default: the first migration seeds it, and the only way
 * to move it, set-default, is one statement).
 */
export const PlanSchema = new EntitySchema<PlanEntity>({
  name: 'Plan',
  tableName: 'plan',
  indexes: [
    { name: 'plan_name_lower_unique', expression: 'create unique index "plan_name_lower_unique" on "plan" (lower("name"))' },
    { name: 'plan_one_default', expression: 'create unique index "plan_one_default" on "plan" ("is_default") where "is_default"' },
  ],
  checks: [{ name: 'plan_default_is_active', expression: '"is_active" or not "is_default"' }],
  properties: {
    id: { type: 'integer', primary: true, autoincrement: true },
    name: { type: 'string', length: 100 },
    description: { type: 'text', nullable: true },
    features: { type: 'json', columnType: 'jsonb' },
    stripeProductId: { type: 'string', length: 255, nullable: true, unique: 'plan_stripe_product_id_unique' },
    isDefault: { type: 'boolean' },
    isActive: { type: 'boolean' },
    createdAt: { type: 'Date', columnType: 'timestamptz(3)' },
    updatedAt: { type: 'Date', columnType: 'timestamptz(3)' },
  },
});
