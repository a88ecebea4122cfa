import { join } from 'node:path';
import type { Database } from '../../adapters/postgres/database';
import { startOpenAiFake, type FakeResponseScript, type OpenAiFake } from '../fakes/openai-fake';
import { createTestDatabase } from '../support/postgres';
import { insertOrganization, testSessions } from '../support/sessions';
import { freePort, startServerChild, type ServerChild } from './children';
import { atCleanUp } from './lifecycle';

/** The copilot benches' rows, written directly: members with a note each, on an unlimited AI plan. */
export interface Caller {
  cookie: string;
  noteId: number;
}

const NOTE_TITLE = 'Quarterly plan';
const NOTE_CONTENT = 'We ship the new billing page in March and fix the invoices. '.repeat(8);

/** Every bench note as the model is given it: what the floor, which reads no note, is handed as its input. */
export const NOTE_AS_INPUT = `Title: ${NOTE_TITLE}\n\n${NOTE_CONTENT}`;

/** A member of `organizationId` with a live session and one note of theirs (rows written directly). */
export async function memberWithNote(database: Database, organizationId: number): Promise<Caller> {
  const { userId, token } = await testSessions(database).loginAs('member', organizationId);
  const now = database.now();
  const [note] = await database.select<{ id: number }>(
    `insert into note (organization_id, user_id, title, content, created_at, updated_at) values ($1, $2, $3, $4, $5, $5) returning id`,
    [organizationId, userId, NOTE_TITLE, NOTE_CONTENT, now],
  );
  return { cookie: `session_id=${token}`, noteId: note!.id };
}

/** An AI plan with an unlimited allotment, as a Stripe subscription to its product would give it. */
export async function onUnlimitedAiPlan(database: Database, organizationId: number): Promise<void> {
  const product = `prod_bench_ai_${organizationId}`;
  await database.run(
    `insert into plan (name, description, features, stripe_product_id, is_default, is_active, created_at, updated_at)
     values ($1, null, $2::jsonb, $3, false, true, now(), now())`,
    [`Bench AI ${organizationId}`, JSON.stringify({ max_notes: -1, max_projects: -1, token_limit: -1, enable_ai: true }), product],
  );
  await database.run(
    `insert into subscription (organization_id, status, product_id, cancel_at_period_end, event_at, updated_at) values ($1, 'active', $2, false, now(), now())`,
    [organizationId, product],
  );
}

/** The copilot benches' two organizations: the app's, on an unlimited AI plan, and the floor's (its own usage rows). */
export interface CopilotOrganizations {
  appOrganizationId: number;
  floorOrganizationId: number;
  appCallers: Caller[];
  floorCallers: Caller[];
}

/**
 * Both organizations with `members` members each, then statistics for the planner, as autovacuum
 * would have gathered them on a server where it runs (some, like the CI machine's, run without
 * it): without them every table is planned on a default guess of rows, and the admission's reads
 * of the small plan, price and settings tables take index scans where a server with statistics
 * reads a page.
 */
export async function seedCopilotOrganizations(database: Database, members: number, label: string): Promise<CopilotOrganizations> {
  const appOrganizationId = await insertOrganization(database, `${label} app`);
  await onUnlimitedAiPlan(database, appOrganizationId);
  const floorOrganizationId = await insertOrganization(database, `${label} floor`);
  const appCallers: Caller[] = [];
  const floorCallers: Caller[] = [];
  for (let i = 0; i < members; i += 1) appCallers.push(await memberWithNote(database, appOrganizationId));
  for (let i = 0; i < members; i += 1) floorCallers.push(await memberWithNote(database, floorOrganizationId));
  await database.run('analyze', []);
  return { appOrganizationId, floorOrganizationId, appCallers, floorCallers };
}

/**
 * What starts one of the copilot servers against the OpenAI fake at `fake`: the app (`app/main.ts`,
 * `APP_LOG_LEVEL=warn`) or the floor with a database (`copilot-floor-server.ts`, given the bench
 * note as its input), on `databaseUrl` and `port`.
 */
export function copilotServer(
  kind: 'app' | 'floor',
  { databaseUrl, port, fake }: { databaseUrl: string; port: number; fake: { url: string; apiKey: string } },
): { entry: string; env: Record<string, string> } {
  if (kind === 'app') {
    return {
      // BENCH_APP_ENTRY runs another build, e.g. dist/server/main.js as `npm run start:prod` runs it.
      entry: process.env.BENCH_APP_ENTRY ?? 'app/main.ts',
      env: { APP_DATABASE_URL: databaseUrl, APP_PORT: String(port), APP_LOG_LEVEL: 'warn', APP_OPENAI_API_KEY: fake.apiKey, APP_OPENAI_BASE_URL: fake.url },
    };
  }
  return {
    entry: 'test/bench/copilot-floor-server.ts',
    env: { BENCH_DATABASE_URL: databaseUrl, BENCH_PORT: String(port), BENCH_OPENAI_URL: fake.url, BENCH_OPENAI_KEY: fake.apiKey, BENCH_FLOOR_INPUT: NOTE_AS_INPUT },
  };
}

/** One copilot call (improve, neutral tone) as a member: the answer read to its end; anything but 200 throws. */
export async function copilotCall(url: string, caller: Caller): Promise<void> {
  const res = await fetch(`${url}/notes/${caller.noteId}/copilot/improve`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: caller.cookie },
    body: JSON.stringify({ tone: 'neutral' }),
  });
  await res.text();
  if (res.status !== 200) throw new Error(`answered ${res.status}`);
}

/**
 * What the copilot diagnostics start from: a throwaway database with both organizations seeded
 * (10 members each) and the OpenAI fake answering `script`, both dropped at the bench's clean-up.
 */
export async function startCopilotDiagnostic(label: string, script: FakeResponseScript): Promise<CopilotOrganizations & { databaseUrl: string; fake: OpenAiFake }> {
  const db = await createTestDatabase();
  atCleanUp(() => db.drop());
  const organizations = await seedCopilotOrganizations(db.database, 10, label);
  const fake = await startOpenAiFake({ defaultScript: script });
  atCleanUp(() => fake.close());
  return { ...organizations, databaseUrl: db.url, fake };
}

/**
 * One copilot server (`copilotServer`) on a free port, its log in `dir`, stopped at the bench's
 * clean-up: `env` is added to its environment, `nodeFlags` given to node.
 */
export async function startCopilotChild(
  name: 'app' | 'floor',
  options: { databaseUrl: string; fake: Pick<OpenAiFake, 'url' | 'apiKey'>; dir: string; nodeFlags?: string[]; env?: Record<string, string> },
): Promise<ServerChild> {
  const port = await freePort();
  const server = copilotServer(name, { databaseUrl: options.databaseUrl, port, fake: options.fake });
  const child = await startServerChild({
    name,
    entry: server.entry,
    env: { ...server.env, ...options.env },
    port,
    logFile: join(options.dir, `${name}.log`),
    readyPath: '/ping',
    nodeFlags: options.nodeFlags ?? [],
  });
  atCleanUp(() => child.stop());
  return child;
}
