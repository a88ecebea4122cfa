/**
 * Where a copilot call's fixed cost goes, in the app and in the floor with a database: both
 * under `node --cpu-prof` (sampling every 100 µs), `COPILOT_PROFILE_CALLS` (1,500) calls each at
 * `COPILOT_PROFILE_CONCURRENCY` (5) at a time against the OpenAI fake answering one delta after
 * 5 ms, so what is measured is each call's own work, not the streaming. Prints each server's CPU
 * per call and its main thread's self time by function and by package. COPILOT_PROFILE_FLAGS
 * runs the servers with other node flags instead of the profiler (`--trace-gc-nvp`),
 * COPILOT_PROFILE_ALLOCATIONS=1 prints what each server allocates per call instead (V8's sampling
 * heap profiler over the measured calls, what garbage collection freed kept, no CPU profiler), and
 * COPILOT_PROFILE_DIR keeps their logs. BENCH_APP_ENTRY runs another build of the app
 * (`dist/server/main.js`, as `npm run start:prod` does, after `npm run build:server`).
 *
 *   npx tsx test/bench/copilot-profile.ts
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerChild } from './children';
import { copilotCall, startCopilotChild, startCopilotDiagnostic, type Caller } from './copilot-seed';
import { allocationLines, summarizeAllocations, summarizeProfile, type AllocationProfile } from './cpu-profile';
import { atCleanUp, runBench } from './lifecycle';

const CALLS = Number(process.env.COPILOT_PROFILE_CALLS ?? 1_500);
const CONCURRENCY = Number(process.env.COPILOT_PROFILE_CONCURRENCY ?? 5);
const WARMUP = 300;
const step = (line: string) => process.stderr.write(`[copilot profile] ${line}\n`);

async function drive(url: string, callers: Caller[], count: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) await copilotCall(url, callers[next++ % callers.length]!);
    }),
  );
}

async function main(): Promise<void> {
  const { appCallers, floorCallers, databaseUrl, fake } = await startCopilotDiagnostic('Profile', { firstByteDelayMs: 5, deltas: 1, deltaDelayMs: 0 });
  // COPILOT_PROFILE_DIR keeps the servers' logs and profiles there.
  const kept = process.env.COPILOT_PROFILE_DIR;
  const dir = kept ?? (await mkdtemp(join(tmpdir(), 'tk-copilot-profile-')));
  if (!kept) atCleanUp(() => rm(dir, { recursive: true, force: true }));
  // COPILOT_PROFILE_FLAGS replaces the profiler's flags (e.g. `--trace-gc-nvp`; the servers' logs are then printed).
  const extraFlags = process.env.COPILOT_PROFILE_FLAGS?.split(' ').filter(Boolean);
  const allocationsOnly = process.env.COPILOT_PROFILE_ALLOCATIONS === '1';
  const profiled = (name: string) => (allocationsOnly ? [] : extraFlags) ?? ['--cpu-prof', `--cpu-prof-dir=${join(dir, name)}`, '--cpu-prof-interval=100'];
  const servers: Array<{ name: string; child: ServerChild; callers: Caller[]; spawnedAt: number }> = [];
  for (const name of ['app', 'floor'] as const) {
    const spawnedAt = Date.now();
    const child = await startCopilotChild(name, { databaseUrl, fake, dir, nodeFlags: profiled(name) });
    servers.push({ name, child, callers: name === 'app' ? appCallers : floorCallers, spawnedAt });
  }
  const startedAt = new Map<string, number>();
  const cpu = new Map<string, number>();
  for (const { name, child, callers } of servers) {
    await drive(child.url, callers, WARMUP);
    if (allocationsOnly) await child.startAllocationSampling();
    const before = await child.cpuUsage();
    startedAt.set(name, Date.now());
    await drive(child.url, callers, CALLS);
    const after = await child.cpuUsage();
    if (allocationsOnly) await child.stopAllocationSampling(join(dir, `${name}.heapprofile`));
    cpu.set(name, (after.user - before.user + after.system - before.system) / CALLS);
  }
  for (const { child } of servers) await child.stop(15_000);
  if (allocationsOnly) {
    for (const { name } of servers) {
      const summary = summarizeAllocations(JSON.parse(await readFile(join(dir, `${name}.heapprofile`), 'utf8')) as AllocationProfile, 40);
      const perCall = (bytes: number) => `${(bytes / CALLS / 1024).toFixed(1)} KB/call`;
      step(`${name}: ${perCall(summary.bytes)} allocated (sampled), ${(cpu.get(name)! / 1000).toFixed(3)} ms CPU per call`);
      for (const line of allocationLines(summary, perCall)) step(line);
    }
    return;
  }
  if (extraFlags) {
    for (const { name } of servers) step(`${name}: ${(cpu.get(name)! / 1000).toFixed(3)} ms CPU per call; its log: ${join(dir, `${name}.log`)}${kept ? '' : ' (gone: set COPILOT_PROFILE_DIR to keep it)'}`);
    return;
  }
  for (const { name, spawnedAt } of servers) {
    const files = (await readdir(join(dir, name))).filter((f) => f.endsWith('.cpuprofile'));
    // tsx's loader thread writes a profile too: the main thread's is the one with the most samples.
    let best: Awaited<ReturnType<typeof summarizeProfile>> | undefined;
    for (const file of files) {
      const summary = await summarizeProfile(join(dir, name, file), startedAt.get(name)! - spawnedAt, 40);
      if (!best || summary.busyMs > best.busyMs) best = summary;
    }
    step(`${name}: ${(cpu.get(name)! / 1000).toFixed(3)} ms CPU per call (process); main thread busy ${best!.busyMs.toFixed(0)} ms over ${CALLS} calls and the warm-up's tail`);
    for (const f of best!.functions) step(`  self ${((f.ms * 1000) / CALLS).toFixed(1)} µs/call ${(f.share * 100).toFixed(1)} %  ${f.name}`);
    for (const f of best!.packages) step(`  package ${((f.ms * 1000) / CALLS).toFixed(1)} µs/call ${(f.share * 100).toFixed(1)} %  ${f.name}`);
    for (const f of best!.inclusivePackages.slice(0, 15)) step(`  inclusive ${((f.ms * 1000) / CALLS).toFixed(1)} µs/call  ${f.name}`);
  }
}

runBench('copilot profile', main, 10 * 60_000);
