/**
 * W1 (`GET /projects`, 20 rows) authenticated by an organization API key beside the same requests
 * authenticated by the session cookie, on one app child process: the server's CPU per request of
 * each. Both paths resolve the caller with one indexed lookup; the key's adds its own rate-limit
 * counter. Target: the key's CPU per request within 1.1× of the cookie's. Writes the
 * "W1 by API key" section of docs/benchmarks.md.
 *
 *   npx tsx test/bench/api-key.bench.ts          (also run by `npm run bench`; BENCH_SCALE shortens it)
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import type { RawResult, RequestSpec } from 'autocannon';
import type { Database } from '../../adapters/postgres/database';
import { createTestDatabase } from '../support/postgres';
import { insertOrganization, testSessions } from '../support/sessions';
import { startBenchApp } from './children';
import { atCleanUp, runBench } from './lifecycle';
import { cannon, summarize, type Measured } from './load';
import { describeLoad, judged, startMachineLoad } from './quiet-machine';
import { MEASURED_HEADER, measuredRow, ratio, table, writeSection } from './report';

const SECTION = '## W1 by API key (`npm run bench`)';
const ORGANIZATIONS = 20;
const PROJECTS = 20;
const CONNECTIONS = 50;
const SECONDS = 12;
const WARMUP_SECONDS = 2;
export const API_KEY_CPU_LIMIT = 1.1;
const SCALE = Number(process.env.BENCH_SCALE ?? 1);
const secs = (seconds: number) => Math.max(1, Math.round(seconds * SCALE * 10) / 10);
const step = (line: string) => process.stderr.write(`[api-key bench] ${line}\n`);

interface Credentials {
  label: string;
  /** One header set per organization, cycled one per request. */
  headers: Array<Record<string, string>>;
}

/** A readonly key of the organization, straight into the table (only its SHA-256, as the app stores it). */
async function apiKey(database: Database, organizationId: number, createdBy: number): Promise<string> {
  const key = `tk_${randomBytes(32).toString('base64url')}`;
  await database.run(
    `insert into api_key (organization_id, name, role, prefix, key_hash, created_by_user_id, created_at) values ($1, 'bench', 'readonly', $2, $3, $4, now())`,
    [organizationId, key.slice(0, 10), createHash('sha256').update(key, 'utf8').digest('hex'), createdBy],
  );
  return key;
}

function cycle(headers: Array<Record<string, string>>): RequestSpec[] {
  let next = 0;
  return [
    {
      method: 'GET',
      path: '/projects',
      setupRequest: (req) => {
        Object.assign(req.headers ?? (req.headers = {}), headers[next++ % headers.length]!);
        return req;
      },
    },
  ];
}

async function main(): Promise<void> {
  const machineLoad = startMachineLoad();
  const db = await createTestDatabase();
  atCleanUp(() => db.drop());
  const database = db.database;
  const cookies: Credentials = { label: 'session cookie', headers: [] };
  const keys: Credentials = { label: 'API key (Bearer)', headers: [] };
  for (let i = 0; i < ORGANIZATIONS; i += 1) {
    const organizationId = await insertOrganization(database, `Bench ${i}`);
    const session = await testSessions(database).loginAs('readonly', organizationId);
    await database.run(
      `insert into project (organization_id, user_id, name, description, created_at, updated_at)
       select $1, $2, 'Project ' || g, 'Benchmark project number ' || g, now() - g * interval '1 second', now() - g * interval '1 second' from generate_series(1, $3::int) g`,
      [organizationId, session.userId, PROJECTS],
    );
    cookies.headers.push({ cookie: `session_id=${session.token}` });
    keys.headers.push({ authorization: `Bearer ${await apiKey(database, organizationId, session.userId)}` });
  }
  // The per-key limit (600/min by default) would turn most of this load into 429s: lift it.
  const app = await startBenchApp(db.url, { APP_API_KEY_RATE_LIMIT: '1000000' });
  for (const credentials of [cookies, keys]) {
    const res = await fetch(`${app.url}/projects`, { headers: credentials.headers[0] });
    if (res.status !== 200) throw new Error(`${credentials.label}: GET /projects answered ${res.status}`);
  }

  const run = (credentials: Credentials, seconds: number) =>
    cannon({ label: credentials.label, url: app.url, connections: CONNECTIONS, seconds, requests: cycle(credentials.headers) });
  for (const credentials of [cookies, keys]) await run(credentials, secs(WARMUP_SECONDS));
  // Halves taking turns, the second in reverse order, so drift in the machine's load hits both alike.
  const runs = new Map<Credentials, RawResult[]>([[cookies, []], [keys, []]]);
  const cpu = new Map<Credentials, number>([[cookies, 0], [keys, 0]]);
  for (const credentials of [cookies, keys, keys, cookies]) {
    step(`${credentials.label} ${secs(SECONDS / 2)} s`);
    const before = await app.cpuUsage();
    runs.get(credentials)!.push(await run(credentials, secs(SECONDS / 2)));
    const after = await app.cpuUsage();
    cpu.set(credentials, cpu.get(credentials)! + after.user + after.system - before.user - before.system);
  }
  const measured = [cookies, keys].map((credentials) => {
    const m = summarize(credentials.label, app.url, CONNECTIONS, runs.get(credentials)!);
    return { ...m, cpuPerRequestMs: cpu.get(credentials)! / 1000 / Math.max(1, m.ok + m.non2xx) };
  });
  await app.stop();

  const body = render(measured as [Measured, Measured], machineLoad);
  process.stdout.write(`\n${body}\n\n`);
  await writeSection(SECTION, body);
  step('docs/benchmarks.md updated');
}

function render([cookie, key]: [Measured, Measured], load: ReturnType<typeof startMachineLoad>): string {
  const us = (m: Measured) => `${((m.cpuPerRequestMs ?? NaN) * 1000).toFixed(0)} µs`;
  const cpuRatio = (key.cpuPerRequestMs ?? NaN) / (cookie.cpuPerRequestMs ?? NaN);
  const scaled = SCALE === 1 ? '' : ` **Durations scaled by BENCH_SCALE=${SCALE}: not a real run.**`;
  return [
    `Run: \`npx tsx test/bench/api-key.bench.ts\` (part of \`npm run bench\`), ${new Date().toISOString()}. ${cpus().length} CPUs, Node ${process.version}.${scaled}`,
    '',
    describeLoad(load),
    '',
    `W1, \`GET /projects\` (${PROJECTS} rows), ${CONNECTIONS} connections, on one app child process (\`APP_LOG_LEVEL=warn\`, the per-key`,
    `limit lifted) over the local PostgreSQL server: ${ORGANIZATIONS} organizations, each with one readonly member's session and one`,
    `readonly API key, cycled one per request. ${WARMUP_SECONDS} s warm-up each (discarded), then ${SECONDS} s each in two halves taking turns`,
    '(cookie, key, key, cookie). Server CPU per request: the child\'s `process.cpuUsage()` over its measured halves, divided by its answers.',
    '',
    table([...MEASURED_HEADER, 'CPU per request'], [[...measuredRow(cookie), us(cookie)], [...measuredRow(key), us(key)]]),
    '',
    table(['target', 'measured', 'result'], [[`CPU per request by API key ≤ ${API_KEY_CPU_LIMIT}× the session cookie's`, ratio(cpuRatio), judged(cpuRatio <= API_KEY_CPU_LIMIT, load)]]),
  ].join('\n');
}

runBench('api-key bench', main, 4 * 60_000);
