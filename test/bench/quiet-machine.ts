import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/**
 * Whether the machine was quiet while a benchmark measured: a PASS written on a machine busy
 * with other work says nothing, so the benches refuse to write one then.
 *
 * The rule, on a machine of N cores:
 *   - the 1-minute load average when the benchmark began was at most 0.75 × N (1.5 on 2 cores):
 *     nothing else was running;
 *   - during each measured window, processes other than the benchmark's own (this process, its
 *     descendants and the PostgreSQL backends serving them) used at most 0.25 × N cores.
 * The load average during and after a window is reported, not judged: the benchmark's own load
 * (a server, PostgreSQL and the load generator keeping 2 cores busy) puts it above 2 on its own,
 * and the 1-minute average lags a minute behind.
 */
export const QUIET_LOAD_PER_CORE = 0.75;
export const QUIET_OTHERS_PER_CORE = 0.25;

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
const cores = () => availableParallelism();

export const oneMinuteLoad = (): number => loadavg()[0]!;

/** What one window saw of the machine. */
export interface LoadWindow {
  /** 1-minute load average at the start and the end of the window. */
  loadBefore: number;
  loadAfter: number;
  /** Cores' worth of CPU used by processes outside the benchmark during the window (NaN where /proc is missing). */
  othersCores: number;
  seconds: number;
}

/** The whole run: the load when it began and every measured window. */
export interface MachineLoad {
  cores: number;
  loadAtStart: number;
  windows: LoadWindow[];
}

export function startMachineLoad(): MachineLoad {
  return { cores: cores(), loadAtStart: oneMinuteLoad(), windows: [] };
}

/** Whether `load` allows a verdict, and why not when it does not. */
export function quietness(load: MachineLoad): { quiet: boolean; why: string } {
  const maxLoad = QUIET_LOAD_PER_CORE * load.cores;
  const maxOthers = QUIET_OTHERS_PER_CORE * load.cores;
  const others = Math.max(0, ...load.windows.map((w) => (Number.isFinite(w.othersCores) ? w.othersCores : 0)));
  if (load.loadAtStart > maxLoad) return { quiet: false, why: `load average ${load.loadAtStart.toFixed(1)} at the start (> ${maxLoad})` };
  if (others > maxOthers) return { quiet: false, why: `other processes used ${others.toFixed(2)} cores during a window (> ${maxOthers})` };
  return { quiet: true, why: '' };
}

/** One line for a report: the threshold, what was seen, and whether verdicts count. */
export function describeLoad(load: MachineLoad): string {
  const { quiet, why } = quietness(load);
  const during = load.windows.map((w) => `${w.loadBefore.toFixed(1)}→${w.loadAfter.toFixed(1)}`).join(', ');
  const others = load.windows.map((w) => (Number.isFinite(w.othersCores) ? w.othersCores.toFixed(2) : '?')).join(', ');
  return [
    `Load: 1-minute load average ${load.loadAtStart.toFixed(1)} at the start; during the measured windows ${during || '—'}`,
    `(the bench's own load included); other processes' CPU in those windows ${others || '—'} cores.`,
    `Quiet means load ≤ ${QUIET_LOAD_PER_CORE * load.cores} at the start and others ≤ ${QUIET_OTHERS_PER_CORE * load.cores} cores in every window (${load.cores} cores):`,
    quiet ? '**quiet**, the verdicts below stand.' : `**busy** (${why}): no PASS is written, only what was met.`,
  ].join(' ');
}

/** PASS/FAIL on a quiet machine; on a busy one, never PASS. */
export function judged(pass: boolean, load: MachineLoad): string {
  if (quietness(load).quiet) return pass ? '**PASS**' : '**FAIL**';
  return pass ? 'met (busy machine: no PASS)' : '**FAIL** (busy machine)';
}

/** Total busy CPU ticks of the machine (steal counts: the host gave the CPU to someone else). */
function machineBusyTicks(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = fields.map(Number);
  return user! + nice! + system! + irq! + softirq! + (steal ?? 0);
}

function stat(pid: number): { ppid: number; ticks: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // After the name: state ppid … utime (12th) stime (13th), counted from state as 0.
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]) };
  } catch {
    return undefined;
  }
}

/** CPU ticks of this process, its descendants (incl. their waited-for children) and `extraPids`. */
function ownTicks(extraPids: readonly number[]): number {
  const all = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const s = stat(pid);
    if (s) all.set(pid, s);
  }
  const ours = new Set<number>([process.pid, ...extraPids]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, s] of all) {
      if (ours.has(pid) || !ours.has(s.ppid)) continue;
      ours.add(pid);
      grew = true;
    }
  }
  let ticks = 0;
  for (const pid of ours) ticks += all.get(pid)?.ticks ?? 0;
  return ticks;
}

/**
 * Watches one measured window. `ownPids` lists processes outside this process tree that work for
 * the benchmark (its database's PostgreSQL backends), asked for at the start and the end.
 */
export async function watchWindow(ownPids: () => Promise<number[]> = async () => []): Promise<{ stop(): Promise<LoadWindow> }> {
  const started = performance.now();
  const loadBefore = oneMinuteLoad();
  let before: { busy: number; own: number; pids: number[] } | undefined;
  try {
    const pids = await ownPids();
    before = { busy: machineBusyTicks(), own: ownTicks(pids), pids };
  } catch {
    before = undefined; // no /proc: others' CPU is reported as unknown
  }
  return {
    async stop() {
      const seconds = (performance.now() - started) / 1000;
      let othersCores = NaN;
      if (before) {
        try {
          // Backends that came or went during the window: both ends' lists count as ours.
          const pids = [...new Set([...before.pids, ...(await ownPids())])];
          const own = ownTicks(pids) - before.own;
          const busy = machineBusyTicks() - before.busy;
          othersCores = Math.max(0, busy - own) / TICKS_PER_SECOND / seconds;
        } catch {
          othersCores = NaN;
        }
      }
      return { loadBefore, loadAfter: oneMinuteLoad(), othersCores, seconds };
    },
  };
}
