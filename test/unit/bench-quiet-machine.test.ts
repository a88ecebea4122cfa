import { afterEach, describe, expect, it } from 'vitest';
import { benchTicks, quietness, RUN_LOAD_AT_START_ENV, startMachineLoad, type ProcessTicks } from '../bench/quiet-machine';

const BENCH = 100;
const POSTMASTER = 50;

const proc = (ppid: number, self: number, children = 0, name = 'node'): ProcessTicks => ({ ppid, name, selfTicks: self, ticks: self + children });
const snapshot = (entries: Array<[number, ProcessTicks]>) => new Map(entries);

describe('benchTicks (the CPU a benchmark window charges to the benchmark)', () => {
  it('counts the benchmark, its children and the listed backends, and nothing else', () => {
    const before = snapshot([
      [BENCH, proc(1, 1_000)],
      [101, proc(BENCH, 2_000)],
      [POSTMASTER, proc(1, 10, 0, 'postgres')],
      [60, proc(POSTMASTER, 500, 0, 'postgres')],
      [70, proc(1, 300, 0, 'neighbour')],
    ]);
    const after = snapshot([
      [BENCH, proc(1, 1_100)],
      [101, proc(BENCH, 2_400)],
      [POSTMASTER, proc(1, 10, 0, 'postgres')],
      [60, proc(POSTMASTER, 650, 0, 'postgres')],
      [70, proc(1, 900, 0, 'neighbour')],
    ]);
    expect(benchTicks(before, after, BENCH, [60]).ticks).toBe(100 + 400 + 150);
  });

  it('does not charge other processes with the life of a backend whose connection closed in the window', () => {
    // The pool closed an idle connection that had served a whole workload (5,000 ticks) before
    // the window: the postmaster reaped it, so its ticks are in no process of ours at the end.
    const before = snapshot([
      [BENCH, proc(1, 1_000)],
      [60, proc(POSTMASTER, 5_000, 0, 'postgres')],
      [61, proc(POSTMASTER, 200, 0, 'postgres')],
    ]);
    const after = snapshot([
      [BENCH, proc(1, 1_300)],
      [61, proc(POSTMASTER, 260, 0, 'postgres')],
    ]);
    expect(benchTicks(before, after, BENCH, [60, 61]).ticks).toBe(300 + 60);
  });

  it('counts a child that exited in the window by what it used in the window (its parent waited for it)', () => {
    const before = snapshot([
      [BENCH, proc(1, 1_000)],
      [101, proc(BENCH, 2_000)],
    ]);
    // The child used 250 more ticks, then exited: its 2,250 moved into the bench's children's ticks.
    const after = snapshot([[BENCH, proc(1, 1_100, 2_250)]]);
    expect(benchTicks(before, after, BENCH, []).ticks).toBe(100 + 250);
  });

  it('counts a backend or child that started in the window whole', () => {
    const before = snapshot([[BENCH, proc(1, 1_000)]]);
    const after = snapshot([
      [BENCH, proc(1, 1_000)],
      [102, proc(BENCH, 40)],
      [62, proc(POSTMASTER, 70, 0, 'postgres')],
    ]);
    expect(benchTicks(before, after, BENCH, [62]).ticks).toBe(110);
  });
});

describe('startMachineLoad and quietness', () => {
  afterEach(() => {
    delete process.env[RUN_LOAD_AT_START_ENV];
  });

  it('judges a benchmark run by `npm run bench` by the load when the whole run began', () => {
    process.env[RUN_LOAD_AT_START_ENV] = '0.4';
    const load = startMachineLoad();
    expect(load).toMatchObject({ loadAtStart: 0.4, ofRun: true });
    expect(quietness(load).quiet).toBe(true);
  });

  it('is busy when another process used more than a quarter of the cores in a window', () => {
    process.env[RUN_LOAD_AT_START_ENV] = '0.4';
    const load = startMachineLoad();
    const window = { loadBefore: 2, loadAfter: 2, othersCores: 0.3 * load.cores, busiestOthers: [], interruptCores: 0, stealCores: 0, seconds: 10 };
    load.windows.push(window);
    expect(quietness(load)).toMatchObject({ quiet: false });
  });

  it('is busy when the run began on a loaded machine', () => {
    process.env[RUN_LOAD_AT_START_ENV] = String(0.8 * startMachineLoad().cores);
    expect(quietness(startMachineLoad()).quiet).toBe(false);
  });
});
