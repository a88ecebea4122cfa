/**
 * The summary of paired differences (e.g. the info-level app's CPU per request minus the
 * warn-level app's, one difference per window both were measured in): their median and a
 * distribution-free interval for it. A difference of two processes' CPU per request moves with
 * whatever else happens in a window (a major GC in one of them, another process); the median of
 * many short windows ignores the few such an event lands in, where in one long window it would
 * be all of it.
 */
export interface PairedSummary {
  count: number;
  median: number;
  /** The interval between two order statistics that holds the true median with probability `coverage`. */
  low: number;
  high: number;
  /** The interval's coverage (e.g. 0.96 for 12 values), NaN with too few values for any interval. */
  coverage: number;
}

/** P(X ≤ k) for X ~ Binomial(n, 1/2). */
function binomialHalfCdf(n: number, k: number): number {
  let term = 0.5 ** n; // P(X = 0)
  let sum = 0;
  for (let i = 0; i <= k; i++) {
    sum += term;
    term = (term * (n - i)) / (i + 1);
  }
  return sum;
}

export function median(sorted: readonly number[]): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * The median of `values` and an interval for it: the k-th smallest and k-th largest values, k
 * the largest for which the interval still holds the true median with probability `confidence`
 * or more (each value falls on either side of the median with probability 1/2: the sign test's
 * binomial count). Needs 6 values for 95 %; non-finite values are left out.
 */
export function pairedSummary(values: readonly number[], confidence = 0.95): PairedSummary {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const n = sorted.length;
  let k = 0;
  while (k + 1 <= n / 2 && 1 - 2 * binomialHalfCdf(n, k) >= confidence) k++;
  if (k === 0) return { count: n, median: median(sorted), low: NaN, high: NaN, coverage: NaN };
  return { count: n, median: median(sorted), low: sorted[k - 1]!, high: sorted[n - k]!, coverage: 1 - 2 * binomialHalfCdf(n, k - 1) };
}

/**
 * One server's figure over another's in each pair of consecutive turns (`turns[0]` and
 * `turns[1]`, `turns[2]` and `turns[3]`, …; each pair one turn of each, in either order):
 * `pick(numerator's turn) / pick(the other's)`. A ratio taken within a pair sees the machine as
 * both servers saw it, minutes apart at most, where the ratio of merged turns lets one slow
 * minute weigh on whichever server ran in it. A pair holding two turns of one server is skipped.
 */
export function pairedRatios<Turn extends { label: string }>(turns: readonly Turn[], numerator: string, pick: (turn: Turn) => number): number[] {
  return pairedBy(turns, numerator, (top, bottom) => pick(top) / pick(bottom));
}

/** `combine(numerator's turn, the other's)` for each pair of consecutive turns, as `pairedRatios` pairs them. */
export function pairedBy<Turn extends { label: string }>(turns: readonly Turn[], numerator: string, combine: (top: Turn, bottom: Turn) => number): number[] {
  const values: number[] = [];
  for (let i = 0; i + 1 < turns.length; i += 2) {
    const [a, b] = [turns[i]!, turns[i + 1]!];
    if (a.label === b.label || (a.label !== numerator && b.label !== numerator)) continue;
    const [top, bottom] = a.label === numerator ? [a, b] : [b, a];
    values.push(combine(top, bottom));
  }
  return values;
}
