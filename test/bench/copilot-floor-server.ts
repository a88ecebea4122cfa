/**
 * The copilot's floor with a database: the least any service with a hard cap must do per call,
 * on raw node:http + pg with named prepared statements. Cookie → SHA-256 → one session lookup →
 * one reservation (`ai_reserve`, the same function as the app's) → the model through the same
 * `openai` SDK call as the app (Responses API, streamed), each delta written as it comes → one
 * settlement (`ai_settle`), before the answer ends (as the app's). No plan, note or switch is read: the input is the bench's note text,
 * passed in. No framework, validation, access log, DI or ORM.
 *
 *   BENCH_DATABASE_URL=… BENCH_PORT=… BENCH_OPENAI_URL=… BENCH_OPENAI_KEY=… BENCH_FLOOR_INPUT=… node --import tsx test/bench/copilot-floor-server.ts
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import OpenAI from 'openai';
import pg from 'pg';

const COOKIE_NAME = 'session_id';
const MODEL = 'gpt-5-mini';
const INSTRUCTIONS = 'Rewrite the note below so it reads better. Use a neutral tone.';
const INPUT = process.env.BENCH_FLOOR_INPUT ?? '';
const INPUT_ESTIMATE = Math.ceil((INSTRUCTIONS.length + INPUT.length) / 4);

const pool = new pg.Pool({ connectionString: process.env.BENCH_DATABASE_URL, max: 10 });
const openai = new OpenAI({ apiKey: process.env.BENCH_OPENAI_KEY, baseURL: process.env.BENCH_OPENAI_URL ?? null, organization: null, project: null, maxRetries: 0 });

const SESSION = {
  name: 'floor_session',
  text: `select u.id as user_id, u.organization_id from session s join app_user u on u.id = s.user_id join organization o on o.id = u.organization_id
   where s.token_hash = $1 and s.expires_at > now() and u.status = 'active' and o.status = 'active'`,
};
const RESERVE = {
  name: 'floor_reserve',
  text: `select id from ai_reserve($1, $2, 'improve', $3, $4, -1, $5, false, 200, 2000, $6, $7)`,
};
const SETTLE = { name: 'floor_settle', text: `select id from ai_settle($1, $2, $3, 'improve', $4, $5, -1, false, $6, $7, null, $8)` };

function token(req: IncomingMessage): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === COOKIE_NAME) return part.slice(eq + 1).trim();
  }
  return undefined;
}

const fail = (res: ServerResponse, status: number) => {
  if (!res.headersSent) res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end('{}');
};

async function copilot(req: IncomingMessage, res: ServerResponse): Promise<void> {
  for await (const _ of req); // the body ({"tone": …}) is not needed
  const secret = token(req);
  if (!secret) return fail(res, 401);
  const hash = createHash('sha256').update(secret, 'utf8').digest('hex');
  const who = (await pool.query<{ user_id: number; organization_id: number }>({ ...SESSION, values: [hash] })).rows[0];
  if (!who) return fail(res, 401);
  const now = new Date();
  const periodStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const reserved = (
    await pool.query<{ id: number }>({ ...RESERVE, values: [who.organization_id, who.user_id, MODEL, periodStart, INPUT_ESTIMATE, now, new Date(now.getTime() + 600_000)] })
  ).rows[0];
  if (!reserved) return fail(res, 403);
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  let usage = { input: INPUT_ESTIMATE, output: 0 };
  let failed = false;
  try {
    const events = await openai.responses.create(
      { model: MODEL, instructions: INSTRUCTIONS, input: INPUT, max_output_tokens: 2000, stream: true },
      { signal: controller.signal },
    );
    for await (const event of events) {
      if (event.type === 'response.output_text.delta') {
        if (!res.headersSent) res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.write(event.delta);
      } else if (event.type === 'response.completed' && event.response.usage) {
        usage = { input: event.response.usage.input_tokens, output: event.response.usage.output_tokens };
      }
    }
  } catch {
    failed = true;
  }
  // Settled before the answer ends, as the app does: the bench's CPU and PostgreSQL windows close
  // when the last answer has ended, so a settlement after it would fall outside the floor's.
  await pool.query({ ...SETTLE, values: [reserved.id, who.organization_id, who.user_id, MODEL, periodStart, usage.input, usage.output, new Date()] });
  if (failed) fail(res, 503);
  else res.end();
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/ping') return void res.end('pong');
  if (req.method !== 'POST' || !/^\/notes\/\d+\/copilot\/improve$/.test(req.url ?? '')) return fail(res, 404);
  copilot(req, res).catch((failure: unknown) => {
    process.stderr.write(`copilot floor: ${failure instanceof Error ? failure.message : String(failure)}\n`);
    fail(res, 500);
  });
});

process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  pool.end().finally(() => process.exit(0));
});
server.listen(Number(process.env.BENCH_PORT), '127.0.0.1');
