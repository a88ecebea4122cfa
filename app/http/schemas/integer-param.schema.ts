import * as v from 'valibot';

/** The largest value of a PostgreSQL `integer` (int4) column: the range of every serial id. */
export const INT4_MAX = 2_147_483_647;

/**
 * A path or query parameter that arrives as a decimal string and leaves as a number in
 * `min..max`; anything else (signs, decimals, exponents, leading zeros, out of range) is a 422,
 * never a database error. The metadata makes the OpenAPI description say `integer`: the
 * converter reads a pipe only up to its transform, so it would otherwise document a string.
 */
export function integerParam(min: number, max: number, description?: string) {
  const message = `Must be an integer from ${min} to ${max}`;
  return v.pipe(
    v.string(message),
    v.metadata({ type: 'integer', minimum: min, maximum: max, ...(description ? { description } : {}) }),
    v.check((text) => /^(0|[1-9]\d{0,15})$/.test(text) && Number(text) >= min && Number(text) <= max, message),
    v.transform(Number),
  );
}

/** An integer in a response (ids, precedences, counts): documented as `integer`, not `number`. */
export const integer = v.pipe(v.number(), v.integer());
