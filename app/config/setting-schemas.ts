import * as v from 'valibot';

// The shapes settings share: each names what is wrong in words a startup message can show.

export const intIn = (min: number, max: number) =>
  v.pipe(
    v.string(),
    v.regex(/^\d+$/, 'must be a whole number'),
    v.transform(Number),
    v.number(),
    v.minValue(min, `must be at least ${min}`),
    v.maxValue(max, `must be at most ${max}`),
  );

export const url = v.pipe(v.string(), v.url('must be a URL'), v.regex(/^https?:\/\//, 'must be an http(s) URL'));
/** Comma-separated origins: `scheme://host[:port]`, nothing after. */
export const origins = v.pipe(
  v.string(),
  v.check(
    (list: string) =>
      list
        .split(',')
        .map((o) => o.trim().replace(/\/+$/, ''))
        .filter((o) => o.length > 0)
        .every((o) => /^https?:\/\/[^/?#\s]+$/.test(o)),
    'must be a comma-separated list of origins such as https://app.example.com',
  ),
);
export const nonEmpty = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'));
export const secret = v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'));

/** What a feature's settings parse to: its settings (undefined: the feature is off), or the problems. */
export type FeatureSettings<T> = { value: T | undefined } | { problems: string[] };

/**
 * Two settings that turn a feature on together: both set, `on(first, second)`; neither, off; one
 * alone is a problem naming both (half a configuration must not pass for off).
 */
export function setTogether<T>(
  names: readonly [string, string],
  first: string | undefined,
  second: string | undefined,
  on: (first: string, second: string) => T,
): FeatureSettings<T> {
  if (Boolean(first) !== Boolean(second)) return { problems: [`${names[0]} and ${names[1]} must be set together`] };
  return { value: first && second ? on(first, second) : undefined };
}
