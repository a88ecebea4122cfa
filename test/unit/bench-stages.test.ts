import { describe, expect, it } from 'vitest';
import { summarizeStages } from '../bench/stages';

describe('summarizeStages', () => {
  it('cuts rounds at a gap between requests and times each stage from its round start', () => {
    const marks: Array<[string, number]> = [
      ['request', 1000],
      ['request', 1002],
      ['session sent', 1003],
      ['session sent', 1005],
      ['first byte written', 1060],
      ['request', 2000], // a gap of ~940 ms: a new round
      ['request', 2004],
      ['session sent', 2009],
      ['session sent', 2011],
      ['first byte written', 2080],
    ];
    const { rounds, stages } = summarizeStages(marks, 150, 2);
    expect(rounds).toBe(2);
    expect(stages.map((s) => s.stage)).toEqual(['request', 'session sent', 'first byte written']);
    const session = stages.find((s) => s.stage === 'session sent')!;
    expect(session.perRound).toBe(2);
    // Times from each round's first request: 3, 5, 9, 11.
    expect([session.p10, session.p50, session.p90]).toEqual([3, 9, 11]);
    expect(stages.find((s) => s.stage === 'first byte written')!.p50).toBe(80);
  });

  it('leaves out rounds with fewer requests than asked, and marks before the first request', () => {
    const marks: Array<[string, number]> = [
      ['session sent', 10], // before any request: no round to put it in
      ['request', 100],
      ['first byte written', 150],
      ['request', 1000],
      ['request', 1001],
      ['first byte written', 1020],
    ];
    const { rounds, stages } = summarizeStages(marks, 150, 2);
    expect(rounds).toBe(1);
    expect(stages.find((s) => s.stage === 'first byte written')).toMatchObject({ perRound: 1, p50: 20 });
    expect(stages.some((s) => s.stage === 'session sent')).toBe(false);
  });
});
