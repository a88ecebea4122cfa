import type { Selectable } from 'kysely';
import { resolveFeatures } from '../../core/plans/feature-map';
import type { Plan } from '../../core/plans/plan';
import type { Tables } from './schema/tables';

/**
 * A `plan` row as the domain's Plan, for both adapter families: typed on the row as the driver
 * reads it (times as text), which the in-memory row (Dates) fits too.
 */
export const toPlan = (row: Selectable<Tables['plan']>): Plan => ({
  id: row.id,
  name: row.name,
  description: row.description,
  // Only the features the plan sets are stored; the catalogue fills the rest.
  features: resolveFeatures(row.features),
  stripeProductId: row.stripe_product_id,
  isDefault: row.is_default,
  isActive: row.is_active,
  createdAt: new Date(row.created_at),
  updatedAt: new Date(row.updated_at),
});
