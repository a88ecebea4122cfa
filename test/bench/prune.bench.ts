/**
 * Session pruning under load: 1,000,000 expired sessions on a throwaway PostgreSQL database,
 * pruned through `POST /cron` while clients keep calling `GET /users/me` with a valid session.
 * Prints a markdown table and writes it as the "Session pruning" section of docs/benchmarks.md.
 *
 *   npx tsx test/bench/prune.bench.ts            (TEST_PG_URL picks the server, as for the tests)
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { startTestApp } from '../support/app';
import { createTestDatabase } from '../support/postgres';
import { insertOrganization, insertUser } from '../support/sessions';

const EXPIRED = Number(process.env.BENCH_EXPIRED_SESSIONS ?? 1_000_000);
const CLIENTS = 4;
const SEED_CHUNK = 100_000;
const BASELINE_MS = 5_000;
const PRUNE_DEADLINE_MS = 300_000;
const SECRET = randomBytes(24).toString('base64url');
const SECTION = '## Session pruning';

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
const ms = (value: number) => `${value.toFixed(1)} ms`;

/** `CLIENTS` loops of `GET /users/me` until `done()` or the deadline; returns each latency. */
async function hammer(url: string, cookie: string, done: () => boolean, deadline: number): Promise<number[]> {
  const latencies: number[] = [];
  const client = async () => {
    while (!done() && Date.now() < deadline) {
      const started = performance.now();
      const res = await fetch(`${url}/users/me`, { headers: { cookie }, signal: AbortSignal.timeout(30_000) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`GET /users/me answered ${res.status}`);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return latencies.sort((a, b) => a - b);
}

function row(label: string, latencies: number[]): string {
  return `| ${label} | ${latencies.length} | ${ms(percentile(latencies, 50))} | ${ms(percentile(latencies, 99))} | ${ms(latencies.at(-1) ?? NaN)} |`;
}

async function main(): Promise<void> {
  const db = await createTestDatabase();
  try {
    const database = db.database;
    const userId = await insertUser(database, await insertOrganization(database, 'Bench'));
    const token = randomBytes(32).toString('base64url');
    await database.run('insert into session (user_id, token_hash, created_at, last_seen_at, expires_at) values ($1, $2, $3, $3, $4)', [
      userId,
      createHash('sha256').update(token).digest('hex'),
      new Date(),
      new Date(Date.now() + 3_600_000),
    ]);
    const seedStarted = performance.now();
    // In chunks: the app's connections carry a 15 s statement timeout.
    for (let from = 1; from <= EXPIRED; from += SEED_CHUNK) {
      await database.run(
        `insert into session (token_hash, user_id, created_at, last_seen_at, expires_at)
         select md5(g::text) || md5((-g)::text), $1, now() - interval '40 days', now() - interval '40 days', now() - interval '30 days' - g * interval '1 second'
           from generate_series($2::int, $3::int) g`,
        [userId, from, Math.min(EXPIRED, from + SEED_CHUNK - 1)],
      );
    }
    await database.run('analyze session', []);
    const seedMs = performance.now() - seedStarted;
    process.stderr.write(`seeded ${EXPIRED} expired sessions in ${(seedMs / 1000).toFixed(1)} s\n`);

    const app = await startTestApp({ APP_DATABASE_URL: db.url, APP_CRON_SECRET: SECRET, APP_LOG_LEVEL: 'warn' });
    try {
      const cookie = `${app.config.sessionCookieName}=${token}`;
      const baselineEnd = Date.now() + BASELINE_MS;
      const baseline = await hammer(app.url, cookie, () => false, baselineEnd);

      const load = loadavg().map((value) => value.toFixed(1)).join(' / ');
      let pruning = true;
      const deadline = Date.now() + PRUNE_DEADLINE_MS;
      const started = performance.now();
      const prune = app
        .request('/cron', { method: 'POST', headers: { authorization: `Bearer ${SECRET}` }, signal: AbortSignal.timeout(PRUNE_DEADLINE_MS) })
        .then(async (res) => ({ status: res.status, body: (await res.json()) as { pruned_sessions?: number } }))
        .finally(() => (pruning = false));
      const during = await hammer(app.url, cookie, () => !pruning, deadline);
      const result = await prune;
      const pruneMs = performance.now() - started;
      if (result.status !== 200 || result.body.pruned_sessions !== EXPIRED) {
        throw new Error(`/cron answered ${result.status} ${JSON.stringify(result.body)}`);
      }
      const [left] = await database.select<{ count: string }>('select count(*) from session', []);

      const table = [
        `${EXPIRED.toLocaleString('en-US')} expired sessions (one user), batches of 5,000, pruned through \`POST /cron\` on the local PostgreSQL server`,
        `while ${CLIENTS} clients call \`GET /users/me\` back to back with a valid session. Node ${process.version}, ${cpus().length} CPUs,`,
        `load average ${load} at the start of the prune (the machine may be shared: compare the two rows, not absolute numbers).`,
        '',
        '| | value |',
        '|---|---|',
        `| prune time | ${(pruneMs / 1000).toFixed(2)} s (${Math.round(EXPIRED / (pruneMs / 1000)).toLocaleString('en-US')} sessions/s) |`,
        `| sessions left | ${left?.count} (the live one) |`,
        '',
        '| `GET /users/me` | requests | p50 | p99 | worst |',
        '|---|---|---|---|---|',
        row('before the prune', baseline),
        row('during the prune', during),
        '',
        `Run: \`npx tsx test/bench/prune.bench.ts\` (${new Date().toISOString().slice(0, 10)}).`,
      ].join('\n');
      process.stdout.write(`${table}\n`);
      await writeSection(table);
    } finally {
      await app.close();
    }
  } finally {
    await db.drop();
  }
}

/** Replaces the section (up to the next `## `) or appends it. */
async function writeSection(body: string): Promise<void> {
  const path = new URL('../../docs/benchmarks.md', import.meta.url);
  const current = await readFile(path, 'utf8').catch(() => '# Benchmarks\n');
  const section = `${SECTION}\n\n${body}\n`;
  const start = current.indexOf(`${SECTION}\n`);
  if (start === -1) {
    await writeFile(path, `${current.trimEnd()}\n\n${section}`);
    return;
  }
  const next = current.indexOf('\n## ', start + SECTION.length);
  const rest = next === -1 ? '' : `\n${current.slice(next + 1)}`;
  await writeFile(path, `${current.slice(0, start)}${section}${rest}`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exit(1);
});
