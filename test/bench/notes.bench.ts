/**
 * Quota-checked creates: `POST /notes` at 50 connections in three organizations of one throwaway
 * database, each through the app as a child process:
 *
 * - unlimited: its plan's `max_notes` is -1, so no quota check runs (the reference);
 * - far below its quota (limit 100,000,000): the full check, i.e. the organization's row lock,
 *   the live count and the insert in one transaction, every request contending for one lock;
 * - at its quota (10 of 10): every create is refused 403 QUOTA_EXCEEDED, which must stay cheap.
 *
 * Target: creates far below the quota reach ≥ 80 % of the unlimited organization's throughput.
 * Writes the "Notes create under quota" section of docs/benchmarks.md.
 *
 *   npx tsx test/bench/notes.bench.ts            (also run by `npm run bench`; BENCH_SCALE shortens it)
 */
import { cpus, loadavg } from 'node:os';
import type { RawResult, RequestSpec } from 'autocannon';
import type { Database } from '../../adapters/postgres/database';
import { createTestDatabase } from '../support/postgres';
import { insertOrganization, testSessions } from '../support/sessions';
import { startBenchApp } from './children';
import { atCleanUp, BENCH_SCALE as SCALE, runBench, scaledSeconds as secs } from './lifecycle';
import { cannon, summarize, type Measured } from './load';
import { MEASURED_HEADER, measuredRow, pct, table, verdict, writeSection } from './report';

const SECTION = '## Notes create under quota (`npm run bench`)';
const CONNECTIONS = 50;
const SECONDS = 12;
const WARMUP_SECONDS = 2;
const MEMBERS = 4;
const step = (line: string) => process.stderr.write(`[notes bench] ${line}\n`);

interface Organization {
  label: string;
  id: number;
  cookies: string[];
}

/** A member session in `organizationId`, straight into the tables. */
async function sessionCookie(database: Database, organizationId: number): Promise<string> {
  return `session_id=${(await testSessions(database).loginAs('member', organizationId)).token}`;
}

/** Subscribes the organization to a plan with `maxNotes`, as a Stripe subscription to its product would. */
async function onPlan(database: Database, organizationId: number, maxNotes: number): Promise<void> {
  const now = database.now();
  const product = `prod_bench_${organizationId}`;
  await database.run(
    `insert into plan (name, description, features, stripe_product_id, is_default, is_active, created_at, updated_at)
     values ($1, null, $2::jsonb, $3, false, true, $4, $4)`,
    [`Bench ${organizationId}`, JSON.stringify({ max_notes: maxNotes }), product, now],
  );
  await database.run(
    `insert into subscription (organization_id, status, stripe_customer_id, stripe_subscription_id, product_id,
       current_period_start, current_period_end, cancel_at_period_end, event_at, updated_at)
     values ($1, 'active', $2, $3, $4, $5, $6, false, $5, $5)`,
    [organizationId, `cus_bench_${organizationId}`, `sub_bench_${organizationId}`, product, now, new Date(now.getTime() + 30 * 86_400_000)],
  );
}

async function organization(database: Database, label: string, maxNotes: number | 'default', notes = 0): Promise<Organization> {
  const id = await insertOrganization(database, label);
  if (maxNotes !== 'default') await onPlan(database, id, maxNotes);
  const cookies = [];
  for (let i = 0; i < MEMBERS; i += 1) cookies.push(await sessionCookie(database, id));
  if (notes > 0) {
    await database.run(
      `insert into note (organization_id, user_id, title, content, created_at, updated_at)
       select $1, (select min(id) from app_user where organization_id = $1), 'seed ' || g, '', now(), now() from generate_series(1, $2::int) g`,
      [id, notes],
    );
  }
  return { label, id, cookies };
}

function createCycle(cookies: string[]): RequestSpec[] {
  let next = 0;
  return [
    {
      method: 'POST',
      path: '/notes',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Benchmark note', content: 'A note created under load.' }),
      setupRequest: (req) => {
        req.headers.cookie = cookies[next++ % cookies.length]!;
        return req;
      },
    },
  ];
}

async function main(): Promise<void> {
  const db = await createTestDatabase();
  atCleanUp(() => db.drop());
  const database = db.database;
  const free = (await database.select<{ features: { max_notes: number } }>('select features from plan where is_default', []))[0]!;
  const orgs = [
    await organization(database, 'unlimited', -1),
    await organization(database, 'far below its quota', 100_000_000),
    await organization(database, 'at its quota', 'default', free.features.max_notes),
  ];
  const app = await startBenchApp(db.url);
  const loadStart = loadavg().map((n) => n.toFixed(1)).join(' / ');

  const run = (org: Organization, seconds: number) =>
    cannon({ label: org.label, url: app.url, connections: CONNECTIONS, seconds, requests: createCycle(org.cookies) });
  for (const org of orgs) await run(org, secs(WARMUP_SECONDS));
  // Halves taking turns, the second in reverse order, so drift in the machine's load hits all alike.
  const runs = new Map<Organization, RawResult[]>(orgs.map((o) => [o, []]));
  for (const org of [...orgs, ...[...orgs].reverse()]) {
    step(`${org.label} ${secs(SECONDS / 2)} s`);
    runs.get(org)!.push(await run(org, secs(SECONDS / 2)));
  }
  const measured = orgs.map((org) => summarize(org.label, app.url, CONNECTIONS, runs.get(org)!));
  const counts = await Promise.all(orgs.map(async (org) => (await database.select<{ n: number }>('select count(*)::int as n from note where organization_id = $1', [org.id]))[0]!.n));
  await app.stop();

  const body = render(measured, counts, free.features.max_notes, loadStart);
  process.stdout.write(`\n${body}\n\n`);
  await writeSection(SECTION, body);
  step('docs/benchmarks.md updated');
}

function render([unlimited, below, at]: Measured[], [, , atCount]: number[], freeLimit: number, loadStart: string): string {
  const share = below!.rps / unlimited!.rps;
  const answered = (m: Measured) => (m.ok + m.non2xx) / m.seconds;
  const scaled = SCALE === 1 ? '' : ` **Durations scaled by BENCH_SCALE=${SCALE}: not a real run.**`;
  return [
    `Run: \`npx tsx test/bench/notes.bench.ts\` (part of \`npm run bench\`), ${new Date().toISOString()}. ${cpus().length} CPUs, Node ${process.version}.`,
    `Load average at start ${loadStart}.${scaled}`,
    '',
    `\`POST /notes\`, ${CONNECTIONS} connections, cookies cycled over ${MEMBERS} members of one organization, through the app as a child`,
    `process (\`APP_LOG_LEVEL=warn\`) on the local PostgreSQL server. ${WARMUP_SECONDS} s warm-up each (discarded), then ${SECONDS} s each in two`,
    'halves taking turns (second half in reverse order). "unlimited": the plan\'s `max_notes` is -1, no quota check runs;',
    '"far below its quota": limit 100,000,000, every create takes the organization\'s row lock, counts and inserts in one',
    `transaction; "at its quota": the default plan's ${freeLimit} of ${freeLimit} used, every create refused.`,
    '',
    table(MEASURED_HEADER, [unlimited!, below!, at!].map(measuredRow)),
    '',
    table(['target', 'measured', 'result'], [
      ['creates far below the quota ≥ 80 % of the unlimited organization\'s req/s', pct(share), verdict(share >= 0.8)],
      ['(not a target) refusals at the quota, answers/s vs unlimited creates/s', pct(answered(at!) / unlimited!.rps), ''],
      ['the organization at its quota still holds exactly its limit of notes after the run', `${atCount} of ${freeLimit}`, verdict(atCount === freeLimit)],
    ]),
  ].join('\n');
}

runBench('notes bench', main, 4 * 60_000);
