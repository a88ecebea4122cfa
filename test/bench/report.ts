import { readFile, writeFile } from 'node:fs/promises';
import type { Measured } from './load';

export const BENCHMARKS_MD = new URL('../../docs/benchmarks.md', import.meta.url);

export const ms = (value: number) => (Number.isFinite(value) ? `${value < 10 ? value.toFixed(2) : value.toFixed(0)} ms` : '—');
export const num = (value: number) => (Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '—');
export const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}×` : '—');
export const pct = (value: number) => (Number.isFinite(value) ? `${Math.round(value * 100)} %` : '—');
export const verdict = (pass: boolean) => (pass ? '**PASS**' : '**FAIL**');

/** Percentiles mean nothing without a completed request. */
export const latency = (m: Measured, pick: 'p50' | 'p99' | 'max') => (m.ok > 0 ? m[pick] : NaN);

export function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

/** One row: server, connections, seconds, req/s, p50, p99, max, answers. */
export function measuredRow(m: Measured): string[] {
  return [m.label, String(m.connections), m.seconds.toFixed(1), num(m.rps), ms(latency(m, 'p50')), ms(latency(m, 'p99')), ms(latency(m, 'max')), answers(m)];
}

export const MEASURED_HEADER = ['server', 'conns', 's', 'req/s', 'p50', 'p99', 'max', 'answers'];

function answers(m: Measured): string {
  const problems = [m.errors ? `${m.errors} errors` : '', m.timeouts ? `${m.timeouts} time-outs` : ''].filter(Boolean);
  return [m.statuses || 'none', ...problems].join(', ');
}

/** The colleague's section (test/bench/prune.bench.ts): new sections go in front of it. */
const PRUNING_SECTION = '\n## Session pruning';

/**
 * Replaces the `heading` section (up to the next `## `) or, when absent, adds it in front of the
 * "Session pruning" section (or at the end). Every other section is kept as it is.
 */
export async function writeSection(heading: string, body: string): Promise<void> {
  const current = await readFile(BENCHMARKS_MD, 'utf8').catch(() => '# Benchmarks\n');
  const section = `${heading}\n\n${body.trimEnd()}\n`;
  const start = current.indexOf(`${heading}\n`);
  if (start !== -1) {
    const next = current.indexOf('\n## ', start + heading.length);
    const rest = next === -1 ? '' : `\n${current.slice(next + 1)}`;
    await writeFile(BENCHMARKS_MD, `${current.slice(0, start)}${section}${rest}`);
    return;
  }
  const pruning = current.indexOf(PRUNING_SECTION);
  if (pruning === -1) {
    await writeFile(BENCHMARKS_MD, `${current.trimEnd()}\n\n${section}`);
    return;
  }
  await writeFile(BENCHMARKS_MD, `${current.slice(0, pruning + 1)}${section}\n${current.slice(pruning + 1)}`);
}
