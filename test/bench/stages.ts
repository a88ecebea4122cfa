/** A stage's times within its rounds, in milliseconds from each round's first request. */
export interface StageSummary {
  stage: string;
  /** How many times a round passed it, on average. */
  perRound: number;
  p10: number;
  p50: number;
  p90: number;
}

/**
 * Cuts a server's stage marks (`[stage, performance.now()]`, in order) into rounds, a round
 * starting at a `request` after at least `gapMs` without one, keeps the rounds with at least
 * `minRequests` requests, and gives each stage's times from its round's start, pooled over the
 * rounds kept, as p10/p50/p90, in the order the stages first appear.
 */
export function summarizeStages(marks: ReadonlyArray<readonly [string, number]>, gapMs: number, minRequests: number): { rounds: number; stages: StageSummary[] } {
  const rounds: Array<Map<string, number[]>> = [];
  let round: Map<string, number[]> | null = null;
  let start = 0;
  let lastRequest = -Infinity;
  for (const [stage, at] of marks) {
    if (stage === 'request') {
      if (at - lastRequest >= gapMs) {
        round = new Map();
        rounds.push(round);
        start = at;
      }
      lastRequest = at;
    }
    if (!round) continue;
    let times = round.get(stage);
    if (!times) round.set(stage, (times = []));
    times.push(at - start);
  }
  const kept = rounds.filter((r) => (r.get('request')?.length ?? 0) >= minRequests);
  const order = [...new Set(kept.flatMap((r) => [...r.keys()]))];
  const stages = order.map((stage) => {
    const times = kept.flatMap((r) => r.get(stage) ?? []).sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
    return { stage, perRound: times.length / kept.length, p10: at(0.1), p50: at(0.5), p90: at(0.9) };
  });
  return { rounds: kept.length, stages };
}
