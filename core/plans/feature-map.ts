import {
  FEATURE_CATALOGUE,
  FEATURE_KEYS,
  UNLIMITED,
  isFeatureKey,
  type FeatureKey,
  type FeatureMap,
  type PlanFeatures,
} from './feature-catalogue';

export type FeatureMapCheck = { ok: true; features: FeatureMap } | { ok: false; errors: Record<string, string> };

// PostgreSQL integer columns and JSON consumers both stop at 2^31 - 1; a bigger cap means nothing.
const MAX_VALUE = 2_147_483_647;

/**
 * Checks a feature map from outside (a request body, an operator's file). Never throws: any value
 * either yields a map of known keys with values of the right kind, or the errors, keyed by field
 * path under `path` (`features.max_notes`), one per offending key. Unknown keys are errors, not
 * ignored: a misspelt `max_note` silently doing nothing is how quotas go unenforced.
 */
export function checkFeatureMap(input: unknown, path = 'features'): FeatureMapCheck {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return { ok: false, errors: { [path]: 'Must be an object of feature values' } };
  }
  const errors: Record<string, string> = {};
  const features: Record<string, number | boolean> = {};
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    const field = `${path}.${key}`;
    if (!isFeatureKey(key)) {
      errors[field] = `Unknown feature; known features: ${FEATURE_KEYS.join(', ')}`;
      continue;
    }
    const problem = valueProblem(key, value);
    if (problem) errors[field] = problem;
    else features[key] = value as number | boolean;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, features: features as FeatureMap };
}

function valueProblem(key: FeatureKey, value: unknown): string | null {
  if (FEATURE_CATALOGUE[key].kind === 'flag') return typeof value === 'boolean' ? null : 'Must be a boolean';
  if (typeof value !== 'number' || !Number.isInteger(value)) return 'Must be an integer';
  if (value < UNLIMITED || value > MAX_VALUE) return `Must be between 0 and ${MAX_VALUE}, or -1 for unlimited`;
  return null;
}

/**
 * Every feature's value: the stored ones, the catalogue default for the rest. Unknown keys (a
 * feature retired from the catalogue) are dropped. A known key whose stored value the code cannot
 * read (a `token_limit` above 2^31 - 1 written by hand, a string for a flag) is an error, never
 * replaced by the default: reading 3,000,000,000 tokens as 0 would refuse every call with `limit 0`,
 * and reading a broken limit as the default could as well grant more than was sold.
 */
export function resolveFeatures(stored: FeatureMap | Record<string, unknown>): PlanFeatures {
  const resolved: Record<string, number | boolean> = {};
  for (const key of FEATURE_KEYS) {
    const value = (stored as Record<string, unknown>)[key];
    if (value === undefined) {
      resolved[key] = FEATURE_CATALOGUE[key].default;
      continue;
    }
    const problem = valueProblem(key, value);
    if (problem) throw new Error(`A plan stores ${JSON.stringify(value)} for ${key}, which cannot be read (${problem}): correct the plan`);
    resolved[key] = value as number | boolean;
  }
  return resolved as PlanFeatures;
}
