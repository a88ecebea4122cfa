import * as v from 'valibot';
import { COPILOT_TONES } from '../../../core/ai/copilot-prompt';
import { pageQuery } from '../paging';
import { integer } from './integer-param.schema';

/** Request and response shapes of the AI copilot, usage, credit-pack and system-settings routes. */

export const CopilotRequest = v.object({
  tone: v.optional(v.pipe(v.picklist(COPILOT_TONES, `Must be one of: ${COPILOT_TONES.join(', ')}`), v.description('How the answer should sound; default `neutral`')), 'neutral'),
});

const timestamp = v.pipe(v.string(), v.isoTimestamp());
const tokens = v.pipe(integer, v.description('Tokens'));

export const PeriodResponse = v.object({
  start: v.pipe(timestamp, v.description('Included')),
  end: v.pipe(timestamp, v.description("Excluded: the next period's start")),
});

export const UsageSummaryResponse = v.object({
  period: PeriodResponse,
  token_limit: v.pipe(integer, v.description("The plan's AI tokens per period; -1 is unlimited")),
  allotment_used: v.pipe(integer, v.description('Tokens charged to the allotment this period')),
  credit_balance: v.pipe(integer, v.description('Credit tokens left (bought in packs; they never expire)')),
  overage_tokens: v.pipe(integer, v.description('Tokens billed as overage this period')),
  my_tokens: v.pipe(integer, v.description("Tokens the caller's own calls used this period")),
});

export const UsageRecordResponse = v.object({
  id: integer,
  organization_id: integer,
  user_id: v.pipe(v.nullable(integer), v.description('Null once the user is deleted')),
  feature: v.picklist(['improve', 'summarize']),
  model: v.string(),
  input_tokens: tokens,
  output_tokens: tokens,
  allotment_tokens: tokens,
  credit_tokens: tokens,
  overage_tokens: tokens,
  cost_usd: v.pipe(v.nullable(v.number()), v.description('From the model price table; null for a model without a price')),
  created_at: timestamp,
});

export const UsageHistoryQuery = pageQuery('usage records');

export const TopUserResponse = v.object({ user_id: integer, email: v.string(), tokens });

export const CreditPackResponse = v.object({
  id: v.string(),
  name: v.string(),
  tokens,
  amount_cents: v.pipe(integer, v.description('The price in the currency’s smallest unit')),
  currency: v.pipe(v.string(), v.description('Lower-case ISO 4217, e.g. `usd`')),
});

export const CreditPackCheckoutRequest = v.object({
  pack_id: v.pipe(v.string('Must be a string'), v.minLength(1, 'Must not be empty'), v.maxLength(64, 'Unknown credit pack')),
});

export const VerifyCreditPackRequest = v.object({
  session_id: v.pipe(
    v.string('Must be a string'),
    v.minLength(1, 'Must not be empty'),
    v.maxLength(255, 'Must be at most 255 characters'),
    v.regex(/^[A-Za-z0-9_]+$/, 'Must be a checkout session id'),
    v.description('The `session_id` the checkout returned to the success URL with'),
  ),
});

export const VerifyCreditPackResponse = v.object({
  status: v.pipe(v.picklist(['fulfilled', 'pending']), v.description('`pending`: not paid yet (an asynchronous payment method); ask again later')),
});

export const SystemSettingsResponse = v.object({ ai_overage_enabled: v.boolean() });
export const SystemSettingsRequest = v.strictObject({ ai_overage_enabled: v.optional(v.boolean('Must be a boolean')) });
