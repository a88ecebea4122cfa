import { describe, expect, it } from 'vitest';
import { armDifferences, type LevelSlice } from '../bench/workloads';

const slice = (level: string, cpuUs: number, responses = 100, arm?: 'a' | 'b'): LevelSlice => ({ label: arm ?? (level === 'info' ? 'b' : 'a'), level, cpuUs, responses, seconds: 0.5 });

describe('armDifferences (the access log\'s info − warn per pair of slices)', () => {
  it('takes info − warn in every pair whichever level came first', () => {
    // warn, info | info, warn | warn, info: 200 vs 230 µs, 240 vs 200, 210 vs 215 a request
    const slices = [slice('warn', 20_000), slice('info', 23_000), slice('info', 24_000), slice('warn', 20_000), slice('warn', 21_000), slice('info', 21_500)];
    expect(armDifferences(slices)).toEqual([30, 40, 5]);
  });

  it('divides by each slice\'s own responses', () => {
    expect(armDifferences([slice('warn', 20_000, 100), slice('info', 22_000, 50)])).toEqual([240]);
  });

  it('reads arm b − arm a when both arms are at the same level (the control), whichever came first', () => {
    // a, b | b, a, all at warn: 200 vs 210 µs a request, then 220 (b) vs 200 (a)
    const slices = [slice('warn', 20_000, 100, 'a'), slice('warn', 21_000, 100, 'b'), slice('warn', 22_000, 100, 'b'), slice('warn', 20_000, 100, 'a')];
    expect(armDifferences(slices)).toEqual([10, 20]);
  });

  it('leaves out an unpaired last slice', () => {
    expect(armDifferences([slice('warn', 1), slice('info', 2), slice('info', 3)])).toHaveLength(1);
  });
});
