/**
 * Passkey login beside password login: both through the app as a child process at the default
 * bcrypt cost, on one throwaway database, driven by the same closed loop (each of CONCURRENCY
 * virtual users signs in again as soon as its last sign-in answered, each sign-in from its own
 * client address, so the per-IP login limit stays out of the way).
 *
 * - password: `POST /auth/login` with the right password (one bcrypt comparison);
 * - passkey: `POST /auth/passkeys/login/options`, then `POST /auth/passkeys/login` with the
 *   assertion of a software authenticator (test/fakes/software-authenticator.ts: real ES256 keys
 *   and signatures) over that challenge — two requests, one sign-in.
 *
 * Reports sign-ins per second and the app's CPU per sign-in (its process.cpuUsage, every thread:
 * the bcrypt workers too; PostgreSQL's own CPU is not in it), and their ratios. Writes the
 * "Passkey login vs password login" section of docs/benchmarks.md.
 *
 *   npx tsx test/bench/passkey-login.bench.ts      (also run by `npm run bench`; BENCH_SCALE shortens it)
 */
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { loadConfig } from '../../app/config/config';
import { BcryptPasswordHasher } from '../../adapters/crypto/bcrypt-password-hasher';
import { SoftwareAuthenticator } from '../fakes/software-authenticator';
import { createTestDatabase } from '../support/postgres';
import { insertOrganization, testSessions } from '../support/sessions';
import { startBenchApp, type ServerChild } from './children';
import { atCleanUp, BENCH_SCALE as SCALE, runBench, scaledSeconds as secs } from './lifecycle';
import { settle } from './load';
import { ms, num, ratio, table, writeSection } from './report';

const SECTION = '## Passkey login vs password login (`npm run bench`)';
const CONCURRENCY = 10;
const SECONDS = 12;
const WARMUP_SECONDS = 2;
const PASSWORD = 'bench-password-1234';
/** The app's dev default: APP_BASE_WEB_URL is the passkeys' origin, its host the rp id. */
const WEB_ORIGIN = 'http://localhost:5173';
const step = (line: string) => process.stderr.write(`[passkey bench] ${line}\n`);

interface BenchUser {
  email: string;
  authenticator: SoftwareAuthenticator;
}

interface Run {
  label: string;
  seconds: number;
  signIns: number;
  failures: number;
  cpuMs: number;
  latencies: number[];
}

let nextAddress = 0;
/** A client address of its own for every sign-in, as many users behind one load balancer. */
const address = () => {
  const n = (nextAddress += 1);
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

async function passwordSignIn(url: string, user: BenchUser): Promise<boolean> {
  const res = await fetch(`${url}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address() },
    body: JSON.stringify({ email: user.email, password: PASSWORD }),
  });
  await res.arrayBuffer();
  return res.status === 200;
}

async function passkeySignIn(url: string, user: BenchUser): Promise<boolean> {
  const from = address();
  const started = await fetch(`${url}/auth/passkeys/login/options`, { method: 'POST', headers: { 'x-forwarded-for': from } });
  const options = (await started.json()) as Record<string, unknown>;
  const cookie = started.headers.getSetCookie().find((c) => c.startsWith('passkey_challenge='))?.split(';')[0];
  if (started.status !== 200 || !cookie) return false;
  const res = await fetch(`${url}/auth/passkeys/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': from, cookie },
    body: JSON.stringify({ response: user.authenticator.assert(options) }),
  });
  await res.arrayBuffer();
  return res.status === 200;
}

/** CONCURRENCY virtual users, each its own account, signing in back to back for `seconds`. */
async function drive(label: string, app: ServerChild, users: BenchUser[], seconds: number, signIn: (url: string, user: BenchUser) => Promise<boolean>): Promise<Run> {
  assertRunning(app);
  const cpuBefore = await app.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const run: Run = { label, seconds: 0, signIns: 0, failures: 0, cpuMs: 0, latencies: [] };
  await Promise.all(
    users.slice(0, CONCURRENCY).map(async (user) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const ok = await signIn(app.url, user).catch(() => false);
        run.latencies.push(performance.now() - t0);
        if (ok) run.signIns += 1;
        else run.failures += 1;
      }
    }),
  );
  run.seconds = (performance.now() - started) / 1000;
  assertRunning(app);
  const cpuAfter = await app.cpuUsage();
  run.cpuMs = (cpuAfter.user - cpuBefore.user + cpuAfter.system - cpuBefore.system) / 1000;
  return run;
}

/** A server that died mid-run fails the benchmark with its log, not with a closed IPC channel. */
function assertRunning(app: ServerChild): void {
  if (app.process.exitCode === null && app.process.signalCode === null) return;
  const tail = readFileSync(app.logFile, 'utf8').split('\n').slice(-20).join('\n');
  throw new Error(`${app.name} exited (${app.process.exitCode ?? app.process.signalCode}). Log tail:\n${tail}`);
}

function merge(runs: Run[]): Run {
  return runs.reduce((all, r) => ({
    label: all.label,
    seconds: all.seconds + r.seconds,
    signIns: all.signIns + r.signIns,
    failures: all.failures + r.failures,
    cpuMs: all.cpuMs + r.cpuMs,
    latencies: [...all.latencies, ...r.latencies],
  }));
}

/** Accounts with the bench password (hashed at `cost`) and a passkey registered through the API. */
async function seedUsers(url: string, db: Awaited<ReturnType<typeof createTestDatabase>>, cost: number): Promise<BenchUser[]> {
  const organizationId = await insertOrganization(db.database, 'Passkey bench');
  const sessions = await Promise.all(Array.from({ length: CONCURRENCY }, () => testSessions(db.database).loginAs('member', organizationId)));
  const hasher = new BcryptPasswordHasher(cost);
  const passwordHash = await hasher.hash(PASSWORD);
  await hasher.close();
  await db.database.run('update app_user set password_hash = $1 where organization_id = $2', [passwordHash, organizationId]);
  const users: BenchUser[] = [];
  for (const session of sessions) {
    const cookie = `session_id=${session.token}`;
    const options = (await (await fetch(`${url}/auth/passkeys/register/options`, { method: 'POST', headers: { cookie } })).json()) as Record<string, unknown>;
    const authenticator = new SoftwareAuthenticator(WEB_ORIGIN);
    const registered = await fetch(`${url}/auth/passkeys/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ response: authenticator.register(options) }),
    });
    if (registered.status !== 201) throw new Error(`passkey registration answered ${registered.status}: ${await registered.text()}`);
    const [row] = await db.database.select<{ email: string }>('select email from app_user where id = $1', [session.userId]);
    users.push({ email: row!.email, authenticator });
  }
  return users;
}

async function main(): Promise<void> {
  const cost = loadConfig({}).config.passwordHashCost;
  const db = await createTestDatabase();
  atCleanUp(() => db.drop());
  const app = await startBenchApp(db.url, { APP_PASSWORD_HASH_COST: String(cost), APP_ENVIRONMENT: 'dev' });
  step(`seeding ${CONCURRENCY} accounts (bcrypt cost ${cost}) with a passkey each`);
  const users = await seedUsers(app.url, db, cost);
  const loadStart = loadavg().map((n) => n.toFixed(1)).join(' / ');

  const kinds = [
    { label: 'passkey', signIn: passkeySignIn },
    { label: 'password', signIn: passwordSignIn },
  ];
  for (const kind of kinds) await drive(kind.label, app, users, secs(WARMUP_SECONDS), kind.signIn);
  await settle(app.url);
  // Halves taking turns, the second in reverse order, so drift in the machine's load hits both alike.
  const halves = new Map<string, Run[]>(kinds.map((k) => [k.label, []]));
  for (const kind of [...kinds, ...[...kinds].reverse()]) {
    step(`${kind.label} ${secs(SECONDS / 2)} s`);
    halves.get(kind.label)!.push(await drive(kind.label, app, users, secs(SECONDS / 2), kind.signIn));
    await settle(app.url);
  }
  const loadEnd = loadavg().map((n) => n.toFixed(1)).join(' / ');
  await app.stop();

  const body = render(merge(halves.get('passkey')!), merge(halves.get('password')!), cost, loadStart, loadEnd);
  process.stdout.write(`\n${body}\n\n`);
  await writeSection(SECTION, body);
  step('docs/benchmarks.md updated');
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

function render(passkey: Run, password: Run, cost: number, loadStart: string, loadEnd: string): string {
  const rate = (r: Run) => r.signIns / r.seconds;
  const cpuPer = (r: Run) => (r.signIns > 0 ? r.cpuMs / r.signIns : NaN);
  const row = (r: Run) => [r.label, r.seconds.toFixed(1), num(r.signIns), String(r.failures), rate(r).toFixed(1), ms(percentile(r.latencies, 50)), ms(percentile(r.latencies, 99)), ms(cpuPer(r))];
  const scaled = SCALE === 1 ? '' : ` **Durations scaled by BENCH_SCALE=${SCALE}: not a real run.**`;
  return [
    `Run: \`npx tsx test/bench/passkey-login.bench.ts\` (part of \`npm run bench\`), ${new Date().toISOString()}. ${cpus().length} CPUs, Node ${process.version}.`,
    `Load average (1/5/15 min) at start ${loadStart}, at end ${loadEnd}.${scaled}`,
    '',
    `${CONCURRENCY} virtual users, each its own account, signing in back to back through the app as a child process`,
    `(\`APP_LOG_LEVEL=warn\`, bcrypt cost ${cost}, the default) on the local PostgreSQL server; every sign-in from its own`,
    `client address. ${secs(WARMUP_SECONDS)} s warm-up each (discarded), then ${secs(SECONDS / 2) * 2} s each in two halves taking turns. A passkey sign-in is`,
    'two requests (options, then the assertion of a software authenticator with real ES256 signatures); a password',
    'sign-in is one. CPU: the app process (all its threads, bcrypt workers included) per completed sign-in; PostgreSQL\'s',
    'own CPU is not counted. Latency: the whole sign-in, both requests for a passkey.',
    '',
    table(['sign-in', 's', 'sign-ins', 'failed', 'per second', 'p50', 'p99', 'app CPU per sign-in'], [row(passkey), row(password)]),
    '',
    `A passkey sign-in costs **${ratio(cpuPer(passkey) / cpuPer(password))}** the app CPU of a password sign-in ` +
      `(1 : ${num(cpuPer(password) / cpuPer(passkey))}), and the app completes **${ratio(rate(passkey) / rate(password))}** as many per second.`,
  ].join('\n');
}

runBench('passkey bench', main, 4 * 60_000);
