import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/**
 * Whether the machine was quiet while a benchmark measured: a PASS written on a machine busy
 * with other work says nothing, so the benches refuse to write one then.
 *
 * The rule, on a machine of N cores:
 *   - the 1-minute load average when the benchmark began (when `npm run bench` began, for the
 *     benchmarks it runs after its own) was at most 0.75 × N (1.5 on 2 cores): nothing else was
 *     running;
 *   - during each measured window, processes other than the benchmark's own (this process, its
 *     descendants and the PostgreSQL backends serving them) used at most 0.25 × N cores.
 * The load average during and after a window is reported, not judged: the benchmark's own load
 * (a server, PostgreSQL and the load generator keeping 2 cores busy) puts it above 2 on its own,
 * and the 1-minute average lags a minute behind.
 */
export const QUIET_LOAD_PER_CORE = 0.75;
export const QUIET_OTHERS_PER_CORE = 0.25;

const TICKS_PER_SECOND = 100; // USER_HZ on Linux
/** One `/proc` CPU tick, in µs. */
export const TICK_MICROS = 1_000_000 / TICKS_PER_SECOND;
const cores = () => availableParallelism();

export const oneMinuteLoad = (): number => loadavg()[0]!;

/** What one window saw of the machine. */
export interface LoadWindow {
  /** 1-minute load average at the start and the end of the window. */
  loadBefore: number;
  loadAfter: number;
  /** Cores' worth of CPU used by processes outside the benchmark during the window (NaN where /proc is missing). */
  othersCores: number;
  /** The outside processes that used the most of it, largest first (at most three, 0.05 cores or more each). */
  busiestOthers: Array<{ pid: number; name: string; cores: number }>;
  /**
   * Of `othersCores`: the kernel's interrupt handling (irq + softirq, which no process is charged
   * for: on a quiet machine mostly the benchmark's own loopback traffic) and the time the
   * hypervisor gave this machine's CPUs to another guest (steal).
   */
  interruptCores: number;
  stealCores: number;
  seconds: number;
}

/** The whole run: the load when it began and every measured window. */
export interface MachineLoad {
  cores: number;
  /** The 1-minute load average when this benchmark began, or when the whole run did (`ofRun`). */
  loadAtStart: number;
  ofRun: boolean;
  windows: LoadWindow[];
}

/**
 * Set by `npm run bench` for the benchmarks it runs after its own: the 1-minute load average when
 * the whole run began. Read at a child's own start, the average would still hold the load of the
 * run's earlier sections (two servers, PostgreSQL and autocannon on two cores leave it above 2
 * for a minute and more), and no section after the first could ever be judged.
 */
export const RUN_LOAD_AT_START_ENV = 'BENCH_RUN_LOAD_AT_START';

export function startMachineLoad(): MachineLoad {
  const ofRun = process.env[RUN_LOAD_AT_START_ENV] ? Number(process.env[RUN_LOAD_AT_START_ENV]) : NaN;
  if (Number.isFinite(ofRun)) return { cores: cores(), loadAtStart: ofRun, ofRun: true, windows: [] };
  return { cores: cores(), loadAtStart: oneMinuteLoad(), ofRun: false, windows: [] };
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
  const others = load.windows.map((w) => (Number.isFinite(w.othersCores) ? `${w.othersCores.toFixed(2)}${w.othersCores > QUIET_OTHERS_PER_CORE * load.cores ? busiestText(w) : ''}` : '?')).join(', ');
  return [
    `Load: 1-minute load average ${load.loadAtStart.toFixed(1)} at the start${load.ofRun ? ' of the run (`npm run bench`)' : ''}; during the measured windows ${during || '—'}`,
    `(the bench's own load included); other processes' CPU in those windows ${others || '—'} cores.`,
    `Quiet means load ≤ ${QUIET_LOAD_PER_CORE * load.cores} at the start and others ≤ ${QUIET_OTHERS_PER_CORE * load.cores} cores in every window (${load.cores} cores):`,
    quiet ? '**quiet**, the verdicts below stand.' : `**busy** (${why}): no PASS is written, only what was met.`,
  ].join(' ');
}

/** The busiest outside processes of a window, for a report line: `` (busiest: name pid cores, …)``, or nothing. */
export function busiestText(window: LoadWindow): string {
  if (window.busiestOthers.length === 0) return '';
  return ` (busiest: ${window.busiestOthers.map((p) => `${p.name} ${p.pid} ${p.cores.toFixed(2)}`).join(', ')})`;
}

/** PASS/FAIL on a quiet machine; on a busy one, never PASS. */
export function judged(pass: boolean, load: MachineLoad): string {
  if (quietness(load).quiet) return pass ? '**PASS**' : '**FAIL**';
  return pass ? 'met (busy machine: no PASS)' : '**FAIL** (busy machine)';
}

/** The machine's busy CPU ticks (steal counts: the host gave the CPU to someone else), of them interrupts' and steal's, and its idle ticks (I/O wait included). */
export function machineTicks(): { busy: number; interrupts: number; steal: number; idle: number } {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = fields.map(Number);
  return { busy: user! + nice! + system! + irq! + softirq! + (steal ?? 0), interrupts: irq! + softirq!, steal: steal ?? 0, idle: idle! + iowait! };
}

export interface ProcessTicks {
  ppid: number;
  name: string;
  /** utime + stime + cutime + cstime: its own CPU and that of the children it waited for. */
  ticks: number;
  /** utime + stime: its own CPU alone. */
  selfTicks: number;
}

/** A process's CPU ticks from `/proc/<pid>/stat` (Linux), or undefined when it is gone or there is no /proc. */
export function processTicks(pid: number): ProcessTicks | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    // After the name: state ppid … utime (12th) stime (13th), counted from state as 0.
    const name = text.slice(text.indexOf('(') + 1, text.lastIndexOf(')'));
    const selfTicks = Number(fields[11]) + Number(fields[12]);
    return { ppid: Number(fields[1]), name, selfTicks, ticks: selfTicks + Number(fields[13]) + Number(fields[14]) };
  } catch {
    return undefined;
  }
}

/** Every process's ticks, by pid. */
function allProcesses(): Map<number, ProcessTicks> {
  const all = new Map<number, ProcessTicks>();
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    const s = processTicks(pid);
    if (s) all.set(pid, s);
  }
  return all;
}

/** `root`, its descendants and `extraPids` with their descendants, and the CPU ticks they used (incl. their waited-for children). */
function ownTicks(all: ReadonlyMap<number, ProcessTicks>, root: number, extraPids: readonly number[]): { ticks: number; ours: Set<number> } {
  const ours = new Set<number>([root, ...extraPids]);
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
  return { ticks, ours };
}

/**
 * The CPU ticks the benchmark used between two snapshots of every process: `root` (the
 * benchmark's process) and its descendants, and `extraPids` (the database's backends, which
 * are the postmaster's children, not ours), as listed at either end.
 *
 * A descendant that exited in between was waited for by its parent, whose children's ticks now
 * hold its whole life: its ticks at the start are subtracted as usual. A backend that exited (a
 * pool closing an idle connection) was waited for by the postmaster, which is not ours: its ticks
 * are gone from the end's sum, so subtracting its whole life's ticks at the start would charge
 * them to other processes (seconds of CPU, when the connection had served a workload before the
 * window). Its CPU inside the window is unknown, and small: it was idle.
 */
export function benchTicks(
  before: ReadonlyMap<number, ProcessTicks>,
  after: ReadonlyMap<number, ProcessTicks>,
  root: number,
  extraPids: readonly number[],
): { ticks: number; ours: Set<number> } {
  const end = ownTicks(after, root, extraPids);
  const start = ownTicks(before, root, extraPids);
  const descendants = ownTicks(before, root, []).ours;
  let startTicks = start.ticks;
  for (const pid of start.ours) if (!after.has(pid) && !descendants.has(pid)) startTicks -= before.get(pid)?.ticks ?? 0;
  return { ticks: end.ticks - startTicks, ours: new Set([...end.ours, ...start.ours]) };
}

/**
 * The outside processes that used the most CPU between two snapshots (alive at both ends), by
 * their own CPU: the postmaster's children's ticks hold the whole lives of the backends it reaped
 * in the window, which are the benchmark's own connections closing.
 */
function busiest(before: ReadonlyMap<number, ProcessTicks>, after: ReadonlyMap<number, ProcessTicks>, ours: Set<number>, seconds: number): LoadWindow['busiestOthers'] {
  const others: LoadWindow['busiestOthers'] = [];
  for (const [pid, now] of after) {
    const then = before.get(pid);
    if (ours.has(pid) || !then || then.name !== now.name) continue;
    const cores = (now.selfTicks - then.selfTicks) / TICKS_PER_SECOND / seconds;
    if (cores >= 0.05) others.push({ pid, name: now.name, cores });
  }
  return others.sort((a, b) => b.cores - a.cores).slice(0, 3);
}

/**
 * Watches one measured window. `ownPids` lists processes outside this process tree that work for
 * the benchmark (its database's PostgreSQL backends), asked for at the start and the end.
 */
export async function watchWindow(ownPids: () => Promise<number[]> = async () => []): Promise<{ stop(): Promise<LoadWindow> }> {
  const started = performance.now();
  const loadBefore = oneMinuteLoad();
  let before: { machine: ReturnType<typeof machineTicks>; processes: Map<number, ProcessTicks>; pids: number[] } | undefined;
  try {
    const pids = await ownPids();
    before = { machine: machineTicks(), processes: allProcesses(), pids };
  } catch {
    before = undefined; // no /proc: others' CPU is reported as unknown
  }
  return {
    async stop() {
      const seconds = (performance.now() - started) / 1000;
      let othersCores = NaN;
      let busiestOthers: LoadWindow['busiestOthers'] = [];
      let interruptCores = NaN;
      let stealCores = NaN;
      if (before) {
        try {
          // Backends that came or went during the window: both ends' lists count as ours.
          const pids = [...new Set([...before.pids, ...(await ownPids())])];
          const processes = allProcesses();
          const machine = machineTicks();
          const busy = machine.busy - before.machine.busy;
          interruptCores = (machine.interrupts - before.machine.interrupts) / TICKS_PER_SECOND / seconds;
          stealCores = (machine.steal - before.machine.steal) / TICKS_PER_SECOND / seconds;
          const own = benchTicks(before.processes, processes, process.pid, pids);
          othersCores = Math.max(0, busy - own.ticks) / TICKS_PER_SECOND / seconds;
          busiestOthers = busiest(before.processes, processes, own.ours, seconds);
        } catch {
          othersCores = NaN;
        }
      }
      return { loadBefore, loadAfter: oneMinuteLoad(), othersCores, busiestOthers, interruptCores, stealCores, seconds };
    },
  };
}
