import { availableParallelism, loadavg } from 'node:os';

/**
 * Whether a benchmark window ran on a quiet machine. A ratio measured while other processes
 * compete for the cores says little about the service, so a window is judged only when the
 * 1-minute load average just before it was at most the number of cores (BENCH_MAX_LOAD
 * overrides the threshold); a busy window may still FAIL, never PASS.
 */
export const LOAD_THRESHOLD = Number(process.env.BENCH_MAX_LOAD ?? availableParallelism());

/** The 1-, 5- and 15-minute load averages now. */
export const loadNow = (): [number, number, number] => loadavg() as [number, number, number];

export interface LoadWindow {
  /** The load averages just before the window. */
  before: [number, number, number];
  /** The load averages at its end. */
  after: [number, number, number];
  /** The 1-minute load average before the window was at most LOAD_THRESHOLD. */
  quiet: boolean;
}

/** Runs `work` as one window, with the load averages around it. */
export async function inWindow<T>(work: () => Promise<T>): Promise<{ result: T; load: LoadWindow }> {
  const before = loadNow();
  const result = await work();
  return { result, load: { before, after: loadNow(), quiet: before[0] <= LOAD_THRESHOLD } };
}

const triple = (load: readonly number[]) => load.map((n) => n.toFixed(1)).join(' / ');

/** "load 1.2 / 0.9 / 0.8 before, 1.9 / 1.0 / 0.8 after". */
export const describeLoad = (w: LoadWindow): string => `load ${triple(w.before)} before, ${triple(w.after)} after`;

/**
 * PASS or FAIL on a quiet machine; on a busy one a failure is still FAIL, and a pass is withheld.
 */
export function judged(pass: boolean, w: LoadWindow): string {
  if (!pass) return w.quiet ? '**FAIL**' : `**FAIL** (busy: 1-min load ${w.before[0].toFixed(1)} > ${LOAD_THRESHOLD})`;
  return w.quiet ? '**PASS**' : `no verdict (busy: 1-min load ${w.before[0].toFixed(1)} > ${LOAD_THRESHOLD})`;
}
