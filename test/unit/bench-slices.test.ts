import { describe, expect, it } from 'vitest';
import { sliceDifferences, type LevelSlice } from '../bench/workloads';

const slice = (level: string, cpuUs: number, responses = 100): LevelSlice => ({ level, cpuUs, responses, seconds: 0.5 });

describe('sliceDifferences (the access log\'s info − warn per pair of slices)', () => {
  it('takes info − warn in every pair whichever level came first', () => {
    // warn, info | info, warn | warn, info: 200 vs 230 µs, 240 vs 200, 210 vs 215 a request
    const slices = [slice('warn', 20_000), slice('info', 23_000), slice('info', 24_000), slice('warn', 20_000), slice('warn', 21_000), slice('info', 21_500)];
    expect(sliceDifferences(slices, ['warn', 'info'])).toEqual([30, 40, 5]);
  });

  it('divides by each slice\'s own responses', () => {
    expect(sliceDifferences([slice('warn', 20_000, 100), slice('info', 22_000, 50)], ['warn', 'info'])).toEqual([240]);
  });

  it('reads second − first when both slices of a pair have the same level (the control)', () => {
    const slices = [slice('warn', 20_000), slice('warn', 21_000), slice('warn', 22_000), slice('warn', 20_000)];
    expect(sliceDifferences(slices, ['warn', 'warn'])).toEqual([10, -20]);
  });

  it('leaves out an unpaired last slice', () => {
    expect(sliceDifferences([slice('warn', 1), slice('info', 2), slice('info', 3)], ['warn', 'info'])).toHaveLength(1);
  });
});
