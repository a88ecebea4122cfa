import * as v from 'valibot';
import { DEFAULT_CREDIT_PACKS, type CreditPack } from '../../core/billing/credit-pack';

const packSchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{1,64}$/, 'id must be 1..64 of A-Z a-z 0-9 _ -')),
  name: v.pipe(v.string(), v.minLength(1, 'name must not be empty'), v.maxLength(100, 'name must be at most 100 characters')),
  tokens: v.pipe(v.number(), v.safeInteger('tokens must be an integer'), v.minValue(1, 'tokens must be at least 1')),
  amount_cents: v.pipe(v.number(), v.safeInteger('amount_cents must be an integer'), v.minValue(1, 'amount_cents must be at least 1')),
  currency: v.pipe(v.string(), v.regex(/^[a-z]{3}$/, 'currency must be a lower-case ISO 4217 code such as usd')),
});

const packsSchema = v.pipe(
  v.array(packSchema),
  v.check((packs) => new Set(packs.map((pack) => pack.id)).size === packs.length, 'pack ids must be unique'),
);

/**
 * APP_AI_CREDIT_PACKS: a JSON array of `{id, name, tokens, amount_cents, currency}`; unset, the
 * three default packs. Returns the packs, or the problems (never echoing the value).
 */
export function parseCreditPacks(value: string | undefined): { packs: readonly CreditPack[] } | { problems: string[] } {
  if (value === undefined) return { packs: DEFAULT_CREDIT_PACKS };
  let json: unknown;
  try {
    json = JSON.parse(value);
  } catch {
    return { problems: ['APP_AI_CREDIT_PACKS must be a JSON array of {id, name, tokens, amount_cents, currency}'] };
  }
  const parsed = v.safeParse(packsSchema, json, { abortEarly: false });
  if (!parsed.success) {
    return { problems: parsed.issues.map((issue) => `APP_AI_CREDIT_PACKS${v.getDotPath(issue) ? `[${v.getDotPath(issue)}]` : ''}: ${issue.message}`) };
  }
  return {
    packs: parsed.output.map((pack) => ({ id: pack.id, name: pack.name, tokens: pack.tokens, amountCents: pack.amount_cents, currency: pack.currency })),
  };
}
