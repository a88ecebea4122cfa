/**
 * The audit log: (1) `GET /audit-events/export` of 1,000,000 events (one organization, one year),
 * events per second and the server's peak resident memory while it streams them, against its
 * memory before; (2) login throughput (`POST /auth/login`, bcrypt at the configured cost) with
 * audit recording on, and with the same server whose AuditLog writes nothing
 * (test/bench/audit-off-server.ts), run alternately. Writes the "Audit log" section of
 * docs/benchmarks.md.
 *
 *   npx tsx test/bench/audit.bench.ts     BENCH_AUDIT_EVENTS=50000 BENCH_AUDIT_LOGIN_SECONDS=3 for a smoke run
 *
 * Resident memory grows during an uncapped export as V8 lets garbage pile up before collecting it;
 * BENCH_AUDIT_HEAP_MB=100 starts the servers with `--max-old-space-size=100`: the export then
 * completes within that heap whatever its size, which is what "memory flat in the number of events"
 * means (300,000 events: 247 MiB resident before, 287 MiB at the peak, on a loaded machine).
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { BcryptPasswordHasher } from '../../adapters/crypto/bcrypt-password-hasher';
import { loadConfig } from '../../app/config/config';
import { createTestDatabase } from '../support/postgres';
import { freePort, startServerChild, type ServerChild } from './children';
import { cannon, loginCycle, settle } from './load';
import { writeSection } from './report';

const EVENTS = Number(process.env.BENCH_AUDIT_EVENTS ?? 1_000_000);
const LOGIN_SECONDS = Number(process.env.BENCH_AUDIT_LOGIN_SECONDS ?? 10);
const LOGIN_CONNECTIONS = 8;
const LOGIN_ROUNDS = 2;
const LOGIN_USERS = 16;
const PASSWORD = 'bench-password-1234';
const SECTION = '## Audit log';
const RSS_SAMPLE_MS = 20;

const step = (line: string) => process.stderr.write(`[audit bench] ${line}\n`);
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const load = () => loadavg().map((n) => n.toFixed(1)).join(' / ');

/** The child's resident set (VmRSS of /proc/<pid>/status), in bytes. */
function rssOf(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : NaN;
}

async function seed(url: string, passwordHashCost: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [org] = (await client.query<{ id: number }>(`insert into organization (name, status, created_at, updated_at) values ('Audit bench', 'active', now(), now()) returning id`)).rows;
    const passwordHash = await new BcryptPasswordHasher(passwordHashCost).hash(PASSWORD);
    const users = await client.query<{ id: number; email: string }>(
      `insert into app_user (organization_id, email, password_hash, role, status, email_verified_at, created_at, updated_at)
       select $1, 'audit-bench-' || n || '@example.test', $2, case when n = 1 then 'org_admin' else 'member' end, 'active', now(), now(), now()
         from generate_series(1, $3::int) n order by n returning id, email`,
      [org!.id, passwordHash, LOGIN_USERS],
    );
    const token = randomBytes(32).toString('base64url');
    await client.query(`insert into session (user_id, token_hash, created_at, last_seen_at, expires_at) values ($1, $2, now(), now(), now() + interval '1 day')`, [
      users.rows[0]!.id,
      createHash('sha256').update(token).digest('hex'),
    ]);
    // One statement, as the log would hold them: a year of sign-ins, spread evenly, oldest first.
    const started = performance.now();
    await client.query(
      `insert into audit_event (organization_id, occurred_at, action, actor_type, actor_id, actor_email, actor_name, target_type, target_id, ip, user_agent, details)
       select $1, timestamptz '2025-01-01T00:00:00Z' + (n - 1) * (interval '365 days' / $2::int), 'login.succeeded', 'user', $3, 'audit-bench-1@example.test', 'Audit Bench',
              'session', n::text, '203.0.113.' || (n % 250), 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0', '{"method": "password"}'::jsonb
         from generate_series(1, $2::int) n`,
      [org!.id, EVENTS, users.rows[0]!.id],
    );
    await client.query('analyze audit_event');
    return { token, emails: users.rows.map((r) => r.email), seedSeconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

/** Streams the whole export, counting lines, while sampling the server's RSS. */
async function exportAll(app: ServerChild, cookie: string) {
  const pid = app.process.pid!;
  const idle = rssOf(pid);
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), RSS_SAMPLE_MS);
  const started = performance.now();
  let lines = 0;
  let bytes = 0;
  let firstByteMs = NaN;
  try {
    const res = await fetch(`${app.url}/audit-events/export?since=2025-01-01T00:00:00Z&until=2026-01-01T00:00:00Z`, { headers: { cookie } });
    if (res.status !== 200 || !res.body) throw new Error(`export answered ${res.status}: ${await res.text()}`);
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - started;
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines += 1;
    }
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  peak = Math.max(peak, rssOf(pid));
  if (lines !== EVENTS) throw new Error(`the export held ${lines} lines, not ${EVENTS}`);
  return { seconds, lines, bytes, idle, peak, firstByteMs };
}

async function logins(target: ServerChild, emails: string[]): Promise<number> {
  const ticks: number[] = [];
  const result = await cannon({ url: target.url, connections: LOGIN_CONNECTIONS, seconds: LOGIN_SECONDS, requests: loginCycle(emails, PASSWORD), label: 'login', ticks, timeout: 60 });
  const ok = result['2xx'];
  if (result.non2xx > 0) throw new Error(`${result.non2xx} logins failed on ${target.name}`);
  await settle(target.url);
  return ok / LOGIN_SECONDS;
}

async function main(): Promise<void> {
  const { config } = loadConfig(process.env);
  const db = await createTestDatabase();
  const logDir = await mkdtemp(join(tmpdir(), 'tk-audit-bench-'));
  const children: ServerChild[] = [];
  try {
    step(`seeding ${EVENTS.toLocaleString('en-US')} events`);
    const seeded = await seed(db.url, config.passwordHashCost);
    step(`seeded in ${seeded.seedSeconds.toFixed(1)} s`);
    const start = async (name: string, entry: string) => {
      const port = await freePort();
      const child = await startServerChild({
        name,
        entry,
        port,
        env: { APP_DATABASE_URL: db.url, APP_PORT: String(port), APP_LOG_LEVEL: 'warn' },
        logFile: join(logDir, `${name}.log`),
        readyPath: '/ping',
        ...(process.env.BENCH_AUDIT_HEAP_MB ? { nodeFlags: [`--max-old-space-size=${process.env.BENCH_AUDIT_HEAP_MB}`] } : {}),
      });
      children.push(child);
      return child;
    };
    const [on, off] = [await start('audit-on', 'app/main.ts'), await start('audit-off', 'test/bench/audit-off-server.ts')];
    const loadAtExport = load();
    step('export');
    const exported = await exportAll(on, `${config.sessionCookieName}=${seeded.token}`);
    step(`exported ${exported.lines} events in ${exported.seconds.toFixed(1)} s, RSS ${mib(exported.idle)} → peak ${mib(exported.peak)}`);

    const loadAtLogins = load();
    const rates = { on: [] as number[], off: [] as number[] };
    for (let round = 0; round < LOGIN_ROUNDS; round += 1) {
      for (const [label, target] of round % 2 === 0 ? ([['on', on], ['off', off]] as const) : ([['off', off], ['on', on]] as const)) {
        step(`logins, audit ${label}, round ${round + 1}`);
        rates[label].push(await logins(target, seeded.emails));
      }
    }
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const [rateOn, rateOff] = [mean(rates.on), mean(rates.off)];
    const [{ count } = { count: '0' }] = await db.database.select<{ count: string }>(`select count(*) from audit_event where action = 'login.succeeded' and occurred_at > now() - interval '1 hour'`, []);

    const table = [
      `Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model.trim() ?? 'unknown CPU'}), local PostgreSQL server, bcrypt cost ${config.passwordHashCost}.`,
      `Load average ${loadAtExport} at the export, ${loadAtLogins} at the logins (the machine may be shared: read the figures side by side, not as absolutes).`,
      '',
      `**Export.** \`GET /audit-events/export\` of ${EVENTS.toLocaleString('en-US')} events (one organization, a year of them; seeded in ${seeded.seedSeconds.toFixed(1)} s by one \`INSERT … SELECT generate_series\`), read by one client as fast as it takes them.`,
      '',
      '| | value |',
      '|---|---|',
      `| events | ${exported.lines.toLocaleString('en-US')} (${(exported.bytes / 1024 / 1024).toFixed(0)} MiB of NDJSON) |`,
      `| time | ${exported.seconds.toFixed(1)} s, first byte after ${exported.firstByteMs.toFixed(0)} ms |`,
      `| rate | ${Math.round(exported.lines / exported.seconds).toLocaleString('en-US')} events/s |`,
      `| server RSS | ${mib(exported.idle)} before, ${mib(exported.peak)} at its peak while exporting (sampled every ${RSS_SAMPLE_MS} ms)${process.env.BENCH_AUDIT_HEAP_MB ? `; V8 heap capped at ${process.env.BENCH_AUDIT_HEAP_MB} MB` : ''} |`,
      '',
      `**Login with and without audit events.** \`POST /auth/login\` at ${LOGIN_CONNECTIONS} connections for ${LOGIN_SECONDS} s, ${LOGIN_ROUNDS} rounds alternating`,
      'between the app and the same app whose AuditLog writes nothing (`test/bench/audit-off-server.ts`); each success writes its session and its',
      '`login.succeeded` event in one transaction.',
      '',
      '| | logins/s |',
      '|---|---|',
      `| audit on | ${rateOn.toFixed(1)} (${rates.on.map((r) => r.toFixed(1)).join(', ')}) |`,
      `| audit off | ${rateOff.toFixed(1)} (${rates.off.map((r) => r.toFixed(1)).join(', ')}) |`,
      `| on / off | ${((rateOn / rateOff) * 100).toFixed(1)} % |`,
      '',
      `Events written by the audit-on logins: ${Number(count).toLocaleString('en-US')}. Run: \`npx tsx test/bench/audit.bench.ts\` (part of \`npm run bench\`; ${new Date().toISOString().slice(0, 10)}).`,
    ].join('\n');
    process.stdout.write(`${table}\n`);
    await writeSection(SECTION, table);
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await db.drop();
    await rm(logDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`audit bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
