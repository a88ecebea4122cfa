import * as v from 'valibot';
import { FEATURE_CATALOGUE, FEATURE_KEYS, type FeatureKey } from '../../../core/plans/feature-catalogue';
import { INT4_MAX, integer, integerParam } from './integer-param.schema';
import { maxCharacters, requiredName, storable } from './text.schema';

/** Request and response shapes of the plan routes, the feature maps derived from the core catalogue. */

const limitValue = v.pipe(
  v.number('Must be an integer'),
  v.integer('Must be an integer'),
  v.minValue(-1, 'Must be -1 (unlimited) or at least 0'),
  v.maxValue(INT4_MAX, `Must be at most ${INT4_MAX}`),
);
const flagValue = v.boolean('Must be a boolean');

const valueSchema = (key: FeatureKey) => (FEATURE_CATALOGUE[key].kind === 'flag' ? flagValue : limitValue);
const KNOWN = `Must be an object of known features (${FEATURE_KEYS.join(', ')})`;

/** Some features: unknown keys, wrong kinds and negatives other than -1 are refused (422). */
export const FeatureMapInput = v.strictObject(
  Object.fromEntries(FEATURE_KEYS.map((key) => [key, v.optional(valueSchema(key))])) as Record<FeatureKey, v.OptionalSchema<typeof limitValue | typeof flagValue, undefined>>,
  KNOWN,
);

/** Every feature, as a plan grants it. */
const PlanFeaturesResponse = v.object(
  Object.fromEntries(FEATURE_KEYS.map((key) => [key, FEATURE_CATALOGUE[key].kind === 'flag' ? v.boolean() : integer])) as Record<
    FeatureKey,
    typeof integer | v.BooleanSchema<undefined>
  >,
);

const planName = requiredName(100);
const planDescription = v.pipe(v.string('Must be a string'), ...maxCharacters(2_000), storable);
const productId = v.pipe(v.string('Must be a string'), v.trim(), v.minLength(1, 'Must not be empty'), ...maxCharacters(255), storable);

export const CreatePlanRequest = v.object({
  name: planName,
  description: v.optional(v.nullable(planDescription)),
  features: v.optional(FeatureMapInput),
  stripe_product_id: v.optional(v.nullable(productId)),
});

/** Any of the fields; omitted ones keep their value, `features` merges key by key. */
export const UpdatePlanRequest = v.object({
  name: v.optional(planName),
  description: v.optional(v.nullable(planDescription)),
  features: v.optional(FeatureMapInput),
  stripe_product_id: v.optional(v.nullable(productId)),
  is_active: v.optional(v.boolean('Must be a boolean')),
});

export const PlanIdParams = v.object({ plan_id: integerParam(1, INT4_MAX, "The plan's id") });

export const ListPlansQuery = v.object({
  include_inactive: v.optional(v.pipe(v.picklist(['true', 'false'], 'Must be true or false'), v.transform((text) => text === 'true'))),
});

const timestamp = v.pipe(v.string(), v.isoTimestamp());

export const PlanResponse = v.object({
  id: integer,
  name: v.string(),
  description: v.nullable(v.string()),
  features: PlanFeaturesResponse,
  stripe_product_id: v.nullable(v.string()),
  is_default: v.boolean(),
  is_active: v.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});

export const FeatureResponse = v.object({
  key: v.picklist(FEATURE_KEYS),
  kind: v.picklist(['limit', 'metered', 'flag']),
  default: v.union([integer, v.boolean()]),
  label: v.string(),
});

const FeatureUsageResponse = v.object({
  kind: v.picklist(['limit', 'metered', 'flag']),
  limit: v.union([integer, v.boolean()]),
  used: v.optional(integer),
});

export const CurrentPlanResponse = v.object({
  plan: PlanResponse,
  subscription: v.nullable(
    v.object({
      status: v.string(),
      current_period_end: v.nullable(timestamp),
      cancel_at_period_end: v.boolean(),
    }),
  ),
  period: v.object({ start: timestamp, end: timestamp }),
  usage: v.object(Object.fromEntries(FEATURE_KEYS.map((key) => [key, FeatureUsageResponse])) as Record<FeatureKey, typeof FeatureUsageResponse>),
});
