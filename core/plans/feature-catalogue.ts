/**
 * Every feature a plan can grant, declared once. Adding a feature is one entry here; the types
 * below, the validation of plan feature maps, `GET /plans/features` and the OpenAPI description
 * all follow from it. A new `limit` also needs a live counter where its records are created
 * (docs/adding-a-feature.md).
 *
 * - `limit`: how many records may exist in the organization at once (deleting one frees a slot);
 * - `metered`: how much may be used within the usage period;
 * - `flag`: whether the capability may be used at all.
 *
 * `limit` and `metered` values are integers ≥ 0, or UNLIMITED.
 */
export const FEATURE_CATALOGUE = {
  max_notes: { kind: 'limit', default: 0, label: 'Notes' },
  max_projects: { kind: 'limit', default: -1, label: 'Projects' },
  token_limit: { kind: 'metered', default: 0, label: 'AI tokens per usage period' },
  enable_ai: { kind: 'flag', default: false, label: 'AI copilot' },
} as const satisfies Record<string, FeatureDefinition>;

export type FeatureKind = 'limit' | 'metered' | 'flag';

export interface FeatureDefinition {
  kind: FeatureKind;
  default: number | boolean;
  label: string;
}

/** No cap: a `limit` or `metered` value of -1. */
export const UNLIMITED = -1;

type Catalogue = typeof FEATURE_CATALOGUE;
export type FeatureKey = keyof Catalogue;
export type FeatureKeyOfKind<K extends FeatureKind> = { [F in FeatureKey]: Catalogue[F]['kind'] extends K ? F : never }[FeatureKey];
export type LimitFeatureKey = FeatureKeyOfKind<'limit'>;
export type MeteredFeatureKey = FeatureKeyOfKind<'metered'>;
export type FlagFeatureKey = FeatureKeyOfKind<'flag'>;

/** Every feature with its value: what a plan grants once catalogue defaults fill the gaps. */
export type PlanFeatures = { [F in FeatureKey]: Catalogue[F]['kind'] extends 'flag' ? boolean : number };

/** Some features with their values, as stored on a plan or sent in a request. */
export type FeatureMap = Partial<PlanFeatures>;

export const FEATURE_KEYS = Object.keys(FEATURE_CATALOGUE) as FeatureKey[];

export const isFeatureKey = (key: string): key is FeatureKey => Object.hasOwn(FEATURE_CATALOGUE, key);

export const featureKind = (key: FeatureKey): FeatureKind => FEATURE_CATALOGUE[key].kind;

/** The catalogue as the API lists it: `[{key, kind, default, label}]`, in declaration order. */
export function listFeatures(): { key: FeatureKey; kind: FeatureKind; default: number | boolean; label: string }[] {
  return FEATURE_KEYS.map((key) => ({ key, ...FEATURE_CATALOGUE[key] }));
}

/** Whether `used` more records or units still fit under `limit`. */
export const hasRoomFor = (limit: number, used: number, more = 1): boolean => limit === UNLIMITED || used + more <= limit;
