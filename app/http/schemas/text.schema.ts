import * as v from 'valibot';

// PostgreSQL text cannot hold U+0000: refuse it here as a 422 instead of failing in the database.
export const noNul = v.check((text: string) => !text.includes('\u0000'), 'Must not contain NUL characters');

/** A required name: trimmed, 1..max characters, storable. */
export const requiredName = (max: number) =>
  v.pipe(
    v.string('Must be a string'),
    v.trim(),
    v.minLength(1, 'Must not be empty'),
    v.maxLength(max, `Must be at most ${max} characters`),
    noNul,
  );

/** An optional, nullable name: trimmed, at most max characters, storable. */
export const optionalName = (max: number) =>
  v.optional(v.nullable(v.pipe(v.string('Must be a string'), v.trim(), v.maxLength(max, `Must be at most ${max} characters`), noNul)));
