/**
 * What each copilot server keeps alive per call in flight: both servers under
 * `--heapsnapshot-signal`, a snapshot with no call in flight and one with `RETAINED_CALLS` (50)
 * calls waiting on the model's first byte, and the difference by constructor, per call. What is
 * alive across a call is what every scavenge copies and what gets promoted, so this is the heap
 * side of the copilot's fixed cost that an allocation profile does not show.
 *
 *   npx tsx test/bench/copilot-retained.ts
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { copilotCall, startCopilotChild, startCopilotDiagnostic } from './copilot-seed';
import { atCleanUp, runBench } from './lifecycle';

const CALLS = Number(process.env.RETAINED_CALLS ?? 50);
const step = (line: string) => process.stderr.write(`[copilot retained] ${line}\n`);

interface Counts {
  bytes: Map<string, number>;
  count: Map<string, number>;
  total: number;
}

/** Self size and count by node type and name (constructor, or "(string)", "(closure) f" …). */
function tally(snapshot: { snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }; nodes: number[]; strings: string[] }): Counts {
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

async function snapshotOf(pid: number, dir: string): Promise<Counts> {
  const before = new Set(await readdir(dir));
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 60_000; waited += 200) {
    await sleep(200);
    const fresh = (await readdir(dir)).filter((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (fresh.length > 0) {
      await sleep(1_500); // written in one go once it appears, but let it finish
      const text = await readFile(join(dir, fresh[0]!), 'utf8').catch(() => '');
      try {
        return tally(JSON.parse(text));
      } catch {
        continue;
      }
    }
  }
  throw new Error('no heap snapshot');
}

async function main(): Promise<void> {
  const { appCallers, floorCallers, databaseUrl, fake } = await startCopilotDiagnostic('Retained', { firstByteDelayMs: 2, deltas: 1, deltaDelayMs: 0 });
  const dir = await mkdtemp(join(tmpdir(), 'tk-copilot-retained-'));
  atCleanUp(() => rm(dir, { recursive: true, force: true }));
  for (const name of ['app', 'floor'] as const) {
    const callers = name === 'app' ? appCallers : floorCallers;
    const child = await startCopilotChild(name, { databaseUrl, fake, dir, nodeFlags: ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`] });
    fake.setDefaultScript({ firstByteDelayMs: 2, deltas: 1, deltaDelayMs: 0 });
    for (let i = 0; i < 300; i += 5) await Promise.all(callers.slice(0, 5).map((c) => copilotCall(child.url, c)));
    const idle = await snapshotOf(child.process.pid!, dir);
    fake.setDefaultScript({ firstByteDelayMs: 60_000, deltas: 1, deltaDelayMs: 0 });
    const requestsBefore = fake.requests.length;
    const inFlight = Array.from({ length: CALLS }, (_, i) => copilotCall(child.url, callers[i % callers.length]!).catch(() => undefined));
    while (fake.requests.length < requestsBefore + CALLS) await sleep(50);
    await sleep(300);
    const busy = await snapshotOf(child.process.pid!, dir);
    const rows = [...busy.bytes.keys()]
      .map((key) => ({ key, bytes: (busy.bytes.get(key) ?? 0) - (idle.bytes.get(key) ?? 0), count: (busy.count.get(key) ?? 0) - (idle.count.get(key) ?? 0) }))
      .filter((r) => r.bytes > 0)
      .sort((a, b) => b.bytes - a.bytes);
    step(`${name}: ${((busy.total - idle.total) / CALLS / 1024).toFixed(1)} KB alive per call in flight (${CALLS} calls waiting on the model)`);
    for (const r of rows.slice(0, 45)) step(`  ${(r.bytes / CALLS).toFixed(0).padStart(6)} B  ${(r.count / CALLS).toFixed(1).padStart(6)} objects  ${r.key}`);
    await child.stop(2_000);
    void Promise.all(inFlight);
  }
}

runBench('copilot retained', main, 10 * 60_000);
