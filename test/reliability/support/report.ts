import { appendFileSync } from 'node:fs';

/**
 * One scenario's figures, as the table in docs/reliability.md shows them. Printed with every run;
 * with RELIABILITY_REPORT=<file> also appended to that file as a JSON line, from which the docs'
 * tables are written.
 */
export interface ScenarioReport {
  scenario: string;
  load: string;
  fault: string;
  durationS: number;
  /** Answers by status per phase, e.g. `{ before: { "201": 800 }, during: { "503": 40 }, after: {...} }`. */
  answers: Record<string, Record<string, number>>;
  writes?: { acknowledged: number; found: number; foundNotAcknowledged?: number };
  notes?: string[];
}

export function report(entry: ScenarioReport): void {
  const phases = Object.entries(entry.answers)
    .map(([phase, counts]) => `${phase}: ${Object.entries(counts).map(([status, n]) => `${n} × ${status}`).join(', ') || 'none'}`)
    .join('; ');
  const writes = entry.writes ? `; writes acknowledged ${entry.writes.acknowledged}, found ${entry.writes.found}` : '';
  console.log(`[reliability] ${entry.scenario} (${entry.durationS} s, ${entry.load}; fault: ${entry.fault}) ${phases}${writes}${entry.notes ? `; ${entry.notes.join('; ')}` : ''}`);
  const file = process.env.RELIABILITY_REPORT;
  if (file) appendFileSync(file, `${JSON.stringify({ ...entry, ranAt: new Date().toISOString() })}\n`);
}
