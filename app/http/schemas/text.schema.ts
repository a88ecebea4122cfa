import * as v from 'valibot';

/** Unicode code points: what JSON Schema's maxLength counts and what PostgreSQL's varchar(n) holds. */
const characters = (text: string): number => [...text].length;

const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text PostgreSQL can store as given: no U+0000 (text cannot hold it: a 500 otherwise) and no
 * unpaired surrogate (it would be silently replaced by U+FFFD).
 */
export const storable = v.check(
  (text: string) => !text.includes('\u0000') && !UNPAIRED_SURROGATE.test(text),
  'Must not contain NUL characters or unpaired surrogates',
);

/**
 * No C0 control character (U+0000–U+001F: line breaks and tabs among them) and no DEL (U+007F).
 * A name is one line that others see: in lists, and quoted in emails, where a line break would
 * let it pose as a paragraph of ours (with a link of its own). Checked before trimming, so a
 * trailing line break is refused too rather than silently dropped.
 */
export const noControlCharacters = v.check(
  (text: string) => !/[\u0000-\u001F\u007F]/.test(text),
  'Must not contain control characters (line breaks, tabs and the like)',
);

/**
 * At most `max` characters, counted as code points (an emoji is one character, not two UTF-16
 * units, which is what `v.maxLength` would count), and described as `maxLength`, which counts
 * code points too. Two actions to spread into a string pipe, not a pipe of its own: the
 * description generator stops at a nested schema, so a nested `v.string()` would hide the limit.
 */
export const maxCharacters = (max: number) =>
  [
    v.metadata<string, { maxLength: number }>({ maxLength: max }),
    v.check<string, string>((text) => characters(text) <= max, `Must be at most ${max} characters`),
  ] as const;

/** A required name: one line without control characters, trimmed, 1..max characters, storable. */
export const requiredName = (max: number) =>
  v.pipe(v.string('Must be a string'), noControlCharacters, v.trim(), v.minLength(1, 'Must not be empty'), ...maxCharacters(max), storable);

/** An optional, nullable name: one line without control characters, trimmed, at most max characters, storable; blank means null. */
export const optionalName = (max: number) =>
  v.optional(
    v.nullable(
      v.pipe(
        v.string('Must be a string'),
        noControlCharacters,
        v.trim(),
        ...maxCharacters(max),
        storable,
        v.transform((text: string) => (text === '' ? null : text)),
      ),
    ),
  );
