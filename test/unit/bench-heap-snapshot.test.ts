import { describe, expect, it } from 'vitest';
import { heapGrowth, tallyHeap, type HeapSnapshot } from '../bench/heap-snapshot';

/** A snapshot in V8's layout: nodes as flat [type, name, self_size] triples. */
function snapshot(nodes: Array<[type: string, name: string, size: number]>): HeapSnapshot {
  const types = ['hidden', 'array', 'string', 'object', 'code', 'closure', 'native'];
  const strings: string[] = [];
  const at = (text: string) => (strings.includes(text) ? strings.indexOf(text) : strings.push(text) - 1);
  return {
    snapshot: { meta: { node_fields: ['type', 'name', 'self_size'], node_types: [types] } },
    nodes: nodes.flatMap(([type, name, size]) => [types.indexOf(type), at(name), size]),
    strings,
  };
}

describe('tallyHeap', () => {
  it('counts objects and natives by constructor, closures by function, the rest by node type', () => {
    const counts = tallyHeap(
      snapshot([
        ['object', 'Promise', 40],
        ['object', 'Promise', 40],
        ['native', 'TCPSocketWrap', 400],
        ['closure', 'onData', 32],
        ['string', 'hello', 24],
        ['string', 'world', 24],
        ['array', '', 100],
      ]),
    );
    expect(Object.fromEntries(counts.bytes)).toEqual({ Promise: 80, TCPSocketWrap: 400, '(closure) onData': 32, '(string)': 48, '(array)': 100 });
    expect(counts.count.get('Promise')).toBe(2);
    expect(counts.count.get('(string)')).toBe(2);
    expect(counts.total).toBe(660);
  });
});

describe('heapGrowth', () => {
  it('keeps the kinds that grew, largest growth first, with how many more there are', () => {
    const before = tallyHeap(snapshot([['object', 'Promise', 40], ['object', 'Socket', 300], ['string', 's', 24]]));
    const after = tallyHeap(
      snapshot([
        ['object', 'Promise', 40],
        ['object', 'Promise', 40],
        ['object', 'Promise', 40],
        ['string', 's', 24],
        ['object', 'Timeout', 120],
      ]),
    );
    // Socket shrank and the strings stayed: neither is listed.
    expect(heapGrowth(before, after)).toEqual([
      { kind: 'Timeout', bytes: 120, count: 1 },
      { kind: 'Promise', bytes: 80, count: 2 },
    ]);
  });
});
