import { describe, expect, it } from 'vitest';
import { summarizeAllocations, type AllocationProfile } from '../bench/cpu-profile';

const root = new URL('../../', import.meta.url).href;
const frame = (functionName: string, url: string, lineNumber = 0) => ({ functionName, url, lineNumber });

describe('summarizeAllocations (bytes allocated by function and by package, from a sampling heap profile)', () => {
  // (root) → koa's handle → the app's route → pg's query, each allocating its own bytes;
  // the same function reached along two paths is one row.
  const profile: AllocationProfile = {
    head: {
      callFrame: frame('(root)', ''),
      selfSize: 0,
      children: [
        {
          callFrame: frame('handle', `${root}node_modules/koa/lib/application.js`, 9),
          selfSize: 1_000,
          children: [
            {
              callFrame: frame('copilot', `${root}app/http/routes/copilot.routes.ts`, 41),
              selfSize: 3_000,
              children: [{ callFrame: frame('query', `${root}node_modules/pg/lib/client.js`, 499), selfSize: 4_000, children: [] }],
            },
          ],
        },
        { callFrame: frame('query', `${root}node_modules/pg/lib/client.js`, 499), selfSize: 2_000, children: [] },
      ],
    },
  };

  it('adds every node\'s own bytes once', () => {
    expect(summarizeAllocations(profile).bytes).toBe(10_000);
  });

  it('ranks functions by their own bytes, wherever on the stack they were reached', () => {
    const { functions } = summarizeAllocations(profile);
    expect(functions.map((f) => [f.name, f.bytes])).toEqual([
      ['query node_modules/pg/lib/client.js:500', 6_000],
      ['copilot app/http/routes/copilot.routes.ts:42', 3_000],
      ['handle node_modules/koa/lib/application.js:10', 1_000],
    ]);
    expect(functions[0]!.share).toBeCloseTo(0.6);
  });

  it('groups by package, the repository\'s own files by path', () => {
    expect(summarizeAllocations(profile).packages.map((p) => [p.name, p.bytes])).toEqual([
      ['pg', 6_000],
      ['app/http/routes/copilot.routes.ts', 3_000],
      ['koa', 1_000],
    ]);
  });

  it('keeps only the first `count` rows', () => {
    expect(summarizeAllocations(profile, 1).functions).toHaveLength(1);
  });
});
