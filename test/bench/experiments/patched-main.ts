/**
 * EXPERIMENT entry: `app/main.ts` with candidate fixes patched in first, chosen by BENCH_PATCHES
 * (comma-separated: `lean-raw`, `lean-pg`, `worker-hasher`). Used by test/bench/fixes.bench.ts only.
 */
import { applyLeanReads } from './lean-reads';
import { applyWorkerHasher } from './worker-hasher';

const patches = new Set((process.env.BENCH_PATCHES ?? '').split(',').filter(Boolean));
if (patches.has('lean-raw')) applyLeanReads('raw');
if (patches.has('lean-pg')) applyLeanReads('pg');
if (patches.has('worker-hasher')) applyWorkerHasher();
await import('../../../app/main');
