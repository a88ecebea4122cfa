import { UNLIMITED } from '../plans/feature-catalogue';

/** The most a copilot call may write, and the least it must be able to (a shorter answer is useless). */
export const MAX_OUTPUT_TOKENS = 2_000;
export const MIN_OUTPUT_TOKENS = 200;

/** An organization's capacity as read under its lock. */
export interface CapacityState {
  /** The plan's `token_limit`; -1 unlimited. */
  allotmentLimit: number;
  /** Charged to the allotment in the period plus held by calls in flight. */
  allotmentCommitted: number;
  /** Credit tokens available (calls in flight already took theirs out). */
  creditBalance: number;
}

export interface ReservationPlan {
  allotmentTokens: number;
  creditTokens: number;
  overageTokens: number;
  maxOutputTokens: number;
}

/**
 * Use beyond capacity is billed as overage only when the organization asked for it, the
 * deployment sells it, and the organization's plan comes from a live subscription that can carry
 * the metered usage. The last condition holds even if the organization's switch is somehow on
 * without one: no usage is ever metered to a customer nothing invoices.
 */
export const overageAllowed = (on: { organizationSwitch: boolean; systemSwitch: boolean; subscribed: boolean }): boolean =>
  on.organizationSwitch && on.systemSwitch && on.subscribed;

/** What is left of the allotment; Infinity when unlimited. */
export const allotmentFree = (state: Pick<CapacityState, 'allotmentLimit' | 'allotmentCommitted'>): number =>
  state.allotmentLimit === UNLIMITED ? Number.POSITIVE_INFINITY : Math.max(0, state.allotmentLimit - state.allotmentCommitted);

/**
 * What to hold for a call whose input is estimated at `inputEstimate` tokens. The output bound is
 * the smaller of MAX_OUTPUT_TOKENS and what capacity leaves after the input; a call that cannot
 * get MIN_OUTPUT_TOKENS is refused (null). With overage allowed, the bound is always
 * MAX_OUTPUT_TOKENS and what capacity cannot cover is held as overage. The allotment is used
 * before credits, since it lapses with the period and credits never do.
 */
export function planReservation(state: CapacityState, inputEstimate: number, overageAllowed: boolean): ReservationPlan | null {
  const free = allotmentFree(state);
  const capacity = free + state.creditBalance;
  let maxOutputTokens = MAX_OUTPUT_TOKENS;
  if (!overageAllowed) {
    if (capacity < inputEstimate + MIN_OUTPUT_TOKENS) return null;
    maxOutputTokens = Math.min(MAX_OUTPUT_TOKENS, capacity - inputEstimate);
  }
  const total = inputEstimate + maxOutputTokens;
  const allotmentTokens = Math.min(total, free);
  const creditTokens = Math.min(total - allotmentTokens, state.creditBalance);
  return { allotmentTokens, creditTokens, overageTokens: total - allotmentTokens - creditTokens, maxOutputTokens };
}

export interface Charge {
  allotmentTokens: number;
  creditTokens: number;
  overageTokens: number;
  /** Used but charged to nobody: beyond the reservation, capacity was spent and overage was off. */
  unbilledTokens: number;
}

/**
 * How `used` tokens are charged: to the allotment (what the reservation holds of it, then what is
 * still free), then to credits (held, then the balance), then, only when the reservation allowed
 * overage, to overage. Whatever remains is unbilled: the cap holds even when a provider reports
 * more than was reserved.
 */
export function chargeUsage(
  used: number,
  held: { allotmentTokens: number; creditTokens: number; overageAllowed: boolean },
  free: { allotment: number; credits: number },
): Charge {
  const allotmentTokens = Math.min(used, held.allotmentTokens + free.allotment);
  let rest = used - allotmentTokens;
  const creditTokens = Math.min(rest, held.creditTokens + free.credits);
  rest -= creditTokens;
  return held.overageAllowed
    ? { allotmentTokens, creditTokens, overageTokens: rest, unbilledTokens: 0 }
    : { allotmentTokens, creditTokens, overageTokens: 0, unbilledTokens: rest };
}

/** The input estimate: characters ÷ 4, rounded up, over everything sent to the model. */
export const estimateTokens = (...texts: string[]): number => Math.ceil(texts.reduce((sum, text) => sum + [...text].length, 0) / 4);

/**
 * The most a provider's usage report is believed, per call. Input: 4 tokens per character sent
 * (a byte-level tokenizer makes at most one token per UTF-8 byte, and a character is at most 4
 * bytes), i.e. 16 per token of the input estimate (characters ÷ 4), plus 256 tokens of message
 * framing. Output: the output bound the model was given (`max_output_tokens`, which counts
 * reasoning tokens too). Both are far below 2^31, so one call's counts always fit.
 */
export const INPUT_TOKENS_PER_ESTIMATED_TOKEN = 16;
export const INPUT_FRAMING_TOKENS = 256;

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
}

/**
 * A provider's report made usable: each count is clamped to [0, its maximum above] (rounded up to
 * a whole token), and a count that is not a finite number is replaced by `estimate`'s. Settlement
 * then always has counts it can store and charge: a report of -1,000,000 tokens can no longer give
 * allotment back, nor 3×10⁹ overflow a column and leave the reservation held.
 */
export function usableReport(reported: TokenCounts, bounds: { inputEstimate: number; maxOutputTokens: number }, estimate: TokenCounts): TokenCounts {
  const clamp = (value: number, max: number, fallback: number) => (Number.isFinite(value) ? Math.min(max, Math.max(0, Math.ceil(value))) : fallback);
  return {
    inputTokens: clamp(reported.inputTokens, bounds.inputEstimate * INPUT_TOKENS_PER_ESTIMATED_TOKEN + INPUT_FRAMING_TOKENS, estimate.inputTokens),
    outputTokens: clamp(reported.outputTokens, bounds.maxOutputTokens, estimate.outputTokens),
  };
}
