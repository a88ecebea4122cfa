import { readFile } from 'node:fs/promises';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) used here. */
interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }>;
  startTime: number;
  samples: number[];
  /** Microseconds between consecutive samples. */
  timeDeltas: number[];
}

export interface SelfTime {
  name: string;
  /** Milliseconds of self time. */
  ms: number;
  /** Share of the busy (non-idle) time. */
  share: number;
}

export interface ProfileSummary {
  busyMs: number;
  idleMs: number;
  functions: SelfTime[];
  packages: SelfTime[];
  /** Time with the package anywhere on the stack (its callees included). */
  inclusivePackages: SelfTime[];
}

const ROOT = new URL('../../', import.meta.url).href;

/** `koa`, `@mikro-orm/knex`, `node:internal`, `app/http/router.ts`, `(garbage collector)`… */
function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const [first, second] = url.slice(modules + '/node_modules/'.length).split('/');
    return first?.startsWith('@') ? `${first}/${second}` : (first ?? url);
  }
  if (url.startsWith('node:')) return 'node (built-in JS)';
  return url.startsWith(ROOT) ? url.slice(ROOT.length) : url;
}

function where(url: string, line: number): string {
  const short = url.startsWith(ROOT) ? url.slice(ROOT.length) : url.replace(/^.*\/node_modules\//, '');
  return short ? ` ${short}:${line + 1}` : '';
}

/** The `count` largest entries of `map`, largest first, each with its share of `total`. */
function ranked(map: Map<string, number>, total: number, count: number): Array<{ name: string; amount: number; share: number }> {
  return [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, amount]) => ({ name, amount, share: amount / total }));
}

function top(map: Map<string, number>, busyUs: number, count: number): SelfTime[] {
  return ranked(map, busyUs, count).map(({ name, amount, share }) => ({ name, ms: amount / 1000, share }));
}

/**
 * Self time per function and per package, from samples taken `skipMs` or more after the profile
 * began (start-up and warm-up left out). Idle time is reported apart and shares are of busy time.
 */
export async function summarizeProfile(path: string, skipMs: number, count = 25): Promise<ProfileSummary> {
  const profile = JSON.parse(await readFile(path, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parents.set(child, n.id);
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let elapsedUs = 0;
  let idleUs = 0;
  let busyUs = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    elapsedUs += delta;
    if (elapsedUs < skipMs * 1000) return;
    const frame = nodes.get(id);
    if (!frame) return;
    if (frame.functionName === '(idle)') {
      idleUs += delta;
      return;
    }
    busyUs += delta;
    const fn = `${frame.functionName || '(anonymous)'}${where(frame.url, frame.lineNumber)}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + delta);
    const pkg = packageOf(frame.url, frame.functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + delta);
    const onStack = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const f = nodes.get(at);
      if (f && f.url) onStack.add(packageOf(f.url, f.functionName));
    }
    for (const name of onStack) inclusive.set(name, (inclusive.get(name) ?? 0) + delta);
  });
  return {
    busyMs: busyUs / 1000,
    idleMs: idleUs / 1000,
    functions: top(byFunction, busyUs, count),
    packages: top(byPackage, busyUs, count),
    inclusivePackages: top(inclusive, busyUs, count),
  };
}

/** The parts of a V8 sampling heap profile (`HeapProfiler.stopSampling`'s `profile`) used here. */
export interface AllocationProfile {
  head: AllocationNode;
}
interface AllocationNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: AllocationNode[];
}

export interface AllocationSummary {
  /** Bytes allocated in all, as the sampler estimates them. */
  bytes: number;
  /** By the function that allocated, largest first; `share` is of `bytes`. */
  functions: Array<{ name: string; bytes: number; share: number }>;
  /** By package (the repository's own files by path), largest first. */
  packages: Array<{ name: string; bytes: number; share: number }>;
}

/**
 * Bytes allocated per function and per package, from a sampling heap profile taken with the
 * objects the scavenger and the mark-compactor freed kept in it (what a call allocates, not
 * what is still alive when the profile ends).
 */
export function summarizeAllocations(profile: AllocationProfile, count = 25): AllocationSummary {
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let bytes = 0;
  const pending = [profile.head];
  for (let node = pending.pop(); node; node = pending.pop()) {
    pending.push(...node.children);
    if (node.selfSize === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    bytes += node.selfSize;
    const fn = `${functionName || '(anonymous)'}${where(url, lineNumber)}`;
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + node.selfSize);
    const pkg = packageOf(url, functionName);
    byPackage.set(pkg, (byPackage.get(pkg) ?? 0) + node.selfSize);
  }
  const largest = (map: Map<string, number>) => ranked(map, bytes, count).map(({ name, amount, share }) => ({ name, bytes: amount, share }));
  return { bytes, functions: largest(byFunction), packages: largest(byPackage) };
}

/**
 * A summary's packages, then its functions, one line each (`  package <amount> <share> %  <name>`,
 * `  self …`), each amount written by `per` (bytes per request, per call …).
 */
export function allocationLines(summary: AllocationSummary, per: (bytes: number) => string): string[] {
  const line = (kind: string) => (f: { name: string; bytes: number; share: number }) => `  ${kind} ${per(f.bytes)} ${(f.share * 100).toFixed(1)} %  ${f.name}`;
  return [...summary.packages.map(line('package')), ...summary.functions.map(line('self'))];
}
