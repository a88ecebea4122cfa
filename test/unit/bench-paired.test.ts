import { describe, expect, it } from 'vitest';
import { pairedRatios, pairedSummary } from '../bench/paired';

describe('pairedSummary (the bench\'s info − warn figure)', () => {
  it('takes the median, of an even count the mean of the middle two', () => {
    expect(pairedSummary([5, 1, 3]).median).toBe(3);
    expect(pairedSummary([4, 1, 3, 2]).median).toBe(2.5);
  });

  it('gives the 3rd smallest and 3rd largest of 12 as the 96 % interval (sign test)', () => {
    const values = [12, 1, 11, 2, 10, 3, 9, 4, 8, 5, 7, 6];
    const summary = pairedSummary(values);
    expect(summary).toMatchObject({ count: 12, median: 6.5, low: 3, high: 10 });
    expect(summary.coverage).toBeCloseTo(1 - (2 * (1 + 12 + 66)) / 4096, 10);
  });

  it('is not moved by one wild pair', () => {
    const quiet = [9, 10, 11, 10, 9, 11, 10, 10, 9, 11, 10, 10];
    expect(pairedSummary([...quiet.slice(1), 400]).median).toBe(pairedSummary(quiet).median);
  });

  it('gives no interval below 6 values, and leaves out values that are not numbers', () => {
    expect(pairedSummary([1, 2, 3, 4, 5])).toMatchObject({ count: 5, median: 3, low: NaN, high: NaN, coverage: NaN });
    expect(pairedSummary([1, 2, 3, 4, 5, 6, NaN]).count).toBe(6);
    expect(pairedSummary([1, 2, 3, 4, 5, 6])).toMatchObject({ low: 1, high: 6 });
  });
});

describe('pairedRatios (the bench\'s W1 ratios)', () => {
  const turn = (label: string, cpu: number) => ({ label, cpu });

  it('divides within each pair of consecutive turns, whichever server ran first', () => {
    const turns = [turn('app', 300), turn('floor', 200), turn('floor', 250), turn('app', 250), turn('app', 330), turn('floor', 300)];
    expect(pairedRatios(turns, 'app', (t) => t.cpu)).toEqual([1.5, 1, 1.1]);
  });

  it('skips a pair of one server\'s turns and an unpaired last turn', () => {
    const turns = [turn('app', 300), turn('app', 200), turn('floor', 100), turn('app', 200), turn('floor', 1)];
    expect(pairedRatios(turns, 'app', (t) => t.cpu)).toEqual([2]);
  });
});
