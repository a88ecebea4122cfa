/** The parts of a V8 heap snapshot (`.heapsnapshot`, what `--heapsnapshot-signal` writes) read here. */
export interface HeapSnapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  /** `node_fields.length` numbers per node. */
  nodes: number[];
  strings: string[];
}

/** A snapshot's objects by kind: self size and count, and the total self size. */
export interface HeapCounts {
  bytes: Map<string, number>;
  count: Map<string, number>;
  total: number;
}

/**
 * Self size and count by kind: an object or a native by its constructor's name, a closure as
 * `(closure) <function name>`, everything else by its node type (`(string)`, `(array)`, `(code)` …).
 */
export function tallyHeap(snapshot: HeapSnapshot): HeapCounts {
  const fields = snapshot.snapshot.meta.node_fields;
  const types = snapshot.snapshot.meta.node_types[0];
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f)) as [number, number, number];
  const bytes = new Map<string, number>();
  const count = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < snapshot.nodes.length; i += width) {
    const type = types[snapshot.nodes[i + typeAt]!]!;
    const name = snapshot.strings[snapshot.nodes[i + nameAt]!]!;
    const key = type === 'object' || type === 'native' ? name : type === 'closure' ? `(closure) ${name}` : `(${type})`;
    const size = snapshot.nodes[i + sizeAt]!;
    bytes.set(key, (bytes.get(key) ?? 0) + size);
    count.set(key, (count.get(key) ?? 0) + 1);
    total += size;
  }
  return { bytes, count, total };
}

/** What `after` holds beyond `before`, by kind: the kinds whose self size grew, largest growth first. */
export function heapGrowth(before: HeapCounts, after: HeapCounts): Array<{ kind: string; bytes: number; count: number }> {
  return [...after.bytes.keys()]
    .map((kind) => ({ kind, bytes: (after.bytes.get(kind) ?? 0) - (before.bytes.get(kind) ?? 0), count: (after.count.get(kind) ?? 0) - (before.count.get(kind) ?? 0) }))
    .filter((row) => row.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
}
