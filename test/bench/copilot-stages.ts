/**
 * When a copilot call passes each stage before its first byte, in the app and in the floor with
 * a database: both run with BENCH_STAGES=1 (`cpu-reporter.ts` records each stage through hooks
 * that are neither server's own code), `STAGES_ROUNDS` (12) rounds of `STAGES_CALLS` (50) calls
 * started together against the OpenAI fake (50 ms to its first byte, then `STAGES_DELTAS` (200)
 * deltas 1 ms apart), the servers taking turns, the first two rounds of each discarded. Prints
 * each stage's p10/p50/p90 from its round's start. STAGES_SEQUENTIAL=1 makes the calls one at a
 * time instead (each its own round), so a stage's time is its own, without queueing.
 *
 *   npx tsx test/bench/copilot-stages.ts
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerChild } from './children';
import { copilotCall, startCopilotChild, startCopilotDiagnostic, type Caller } from './copilot-seed';
import { atCleanUp, runBench } from './lifecycle';
import { summarizeStages } from './stages';

const ROUNDS = Number(process.env.STAGES_ROUNDS ?? 12);
const CALLS = Number(process.env.STAGES_CALLS ?? 50);
const DELTAS = Number(process.env.STAGES_DELTAS ?? 200);
const SEQUENTIAL = process.env.STAGES_SEQUENTIAL === '1';
const WARMUP_ROUNDS = 2;
/** Longer than any gap inside a round, shorter than the pause between rounds. */
const ROUND_GAP_MS = 150;
const step = (line: string) => process.stderr.write(`[copilot stages] ${line}\n`);

async function round(child: ServerChild, callers: Caller[]): Promise<void> {
  if (!SEQUENTIAL) {
    await Promise.all(Array.from({ length: CALLS }, (_, i) => copilotCall(child.url, callers[i % callers.length]!)));
    return;
  }
  for (let i = 0; i < CALLS; i += 1) {
    await copilotCall(child.url, callers[i % callers.length]!);
    await sleep(ROUND_GAP_MS + 50);
  }
}

async function main(): Promise<void> {
  const { appCallers, floorCallers, databaseUrl, fake } = await startCopilotDiagnostic('Stages', { firstByteDelayMs: 50, deltas: DELTAS, deltaDelayMs: 1 });
  const dir = await mkdtemp(join(tmpdir(), 'tk-copilot-stages-'));
  atCleanUp(() => rm(dir, { recursive: true, force: true }));
  const servers: Array<{ name: string; child: ServerChild; callers: Caller[] }> = [];
  for (const name of ['app', 'floor'] as const) {
    const child = await startCopilotChild(name, { databaseUrl, fake, dir, env: { BENCH_STAGES: '1' } });
    servers.push({ name, child, callers: name === 'app' ? appCallers : floorCallers });
  }
  for (let r = 0; r < WARMUP_ROUNDS + ROUNDS; r += 1) {
    if (r === WARMUP_ROUNDS) for (const { child } of servers) await child.stageMarks();
    for (const { child, callers } of servers) {
      await round(child, callers);
      await sleep(ROUND_GAP_MS * 2);
    }
  }
  step(`${SEQUENTIAL ? `${CALLS} calls one at a time` : `${ROUNDS} rounds of ${CALLS} calls started together`}, ${DELTAS} deltas each; ms from the round's first request`);
  for (const { name, child } of servers) {
    const { rounds, stages } = summarizeStages(await child.stageMarks(), ROUND_GAP_MS, SEQUENTIAL ? 1 : CALLS);
    step(`${name} (${rounds} rounds)`);
    for (const s of stages) step(`  ${s.stage.padEnd(20)} ${s.perRound.toFixed(1).padStart(5)} a round   p10 ${s.p10.toFixed(1).padStart(6)}   p50 ${s.p50.toFixed(1).padStart(6)}   p90 ${s.p90.toFixed(1).padStart(6)}`);
  }
}

runBench('copilot stages', main, 10 * 60_000);
