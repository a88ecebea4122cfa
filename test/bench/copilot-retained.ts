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
import { heapGrowth, tallyHeap, type HeapCounts, type HeapSnapshot } from './heap-snapshot';
import { atCleanUp, runBench } from './lifecycle';

const CALLS = Number(process.env.RETAINED_CALLS ?? 50);
/** The fake's answer while warming up and at the idle snapshot: quick, one delta. */
const QUICK = { firstByteDelayMs: 2, deltas: 1, deltaDelayMs: 0 };
const step = (line: string) => process.stderr.write(`[copilot retained] ${line}\n`);

async function snapshotOf(pid: number, dir: string): Promise<HeapCounts> {
  const before = new Set(await readdir(dir));
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 60_000; waited += 200) {
    await sleep(200);
    const fresh = (await readdir(dir)).filter((f) => f.endsWith('.heapsnapshot') && !before.has(f));
    if (fresh.length > 0) {
      // The file appears before it is whole: give it time, and read it again while it does not parse.
      await sleep(1_500);
      const text = await readFile(join(dir, fresh[0]!), 'utf8').catch(() => '');
      try {
        return tallyHeap(JSON.parse(text) as HeapSnapshot);
      } catch {
        continue;
      }
    }
  }
  throw new Error('no heap snapshot');
}

async function main(): Promise<void> {
  const { appCallers, floorCallers, databaseUrl, fake } = await startCopilotDiagnostic('Retained', QUICK);
  const dir = await mkdtemp(join(tmpdir(), 'tk-copilot-retained-'));
  atCleanUp(() => rm(dir, { recursive: true, force: true }));
  for (const name of ['app', 'floor'] as const) {
    const callers = name === 'app' ? appCallers : floorCallers;
    const child = await startCopilotChild(name, { databaseUrl, fake, dir, nodeFlags: ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${dir}`] });
    fake.setDefaultScript(QUICK); // the previous server's turn left it waiting a minute
    for (let i = 0; i < 300; i += 5) await Promise.all(callers.slice(0, 5).map((c) => copilotCall(child.url, c)));
    const idle = await snapshotOf(child.process.pid!, dir);
    fake.setDefaultScript({ firstByteDelayMs: 60_000, deltas: 1, deltaDelayMs: 0 });
    const requestsBefore = fake.requests.length;
    // Left waiting on the model: they fail when the server stops below, and that is expected.
    for (let i = 0; i < CALLS; i += 1) void copilotCall(child.url, callers[i % callers.length]!).catch(() => undefined);
    while (fake.requests.length < requestsBefore + CALLS) await sleep(50);
    await sleep(300);
    const busy = await snapshotOf(child.process.pid!, dir);
    const rows = heapGrowth(idle, busy);
    step(`${name}: ${((busy.total - idle.total) / CALLS / 1024).toFixed(1)} KB alive per call in flight (${CALLS} calls waiting on the model)`);
    for (const r of rows.slice(0, 45)) step(`  ${(r.bytes / CALLS).toFixed(0).padStart(6)} B  ${(r.count / CALLS).toFixed(1).padStart(6)} objects  ${r.kind}`);
    await child.stop(2_000);
  }
}

runBench('copilot retained', main, 10 * 60_000);
