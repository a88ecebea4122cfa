/**
 * The floor: what any service must do for W1 and W2, on raw node:http + pg, with nothing in
 * between. GET /projects: cookie → SHA-256 → one principal query (session ⋈ app_user ⋈
 * organization, with the validity checks) → the same list query → the same JSON and the same
 * response headers. POST /auth/login: JSON body → the user by email → bcrypt compare at the
 * stored hash's cost (bcryptjs's async API, as a hand-written server would call it) → one session
 * insert → the session cookie. Every statement is a named prepared statement (`name` on the
 * query: parsed and planned once per pooled connection), as the app's reads on these paths are,
 * so the comparison is like for like. No framework, no router, no validation library, no access
 * log, no DI, no ORM layer, no login throttle or rate limit.
 *
 *   BENCH_DATABASE_URL=postgres://… BENCH_PORT=8100 node --import tsx test/bench/baseline-server.ts
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import bcrypt from 'bcryptjs';
import pg from 'pg';

const COOKIE_NAME = process.env.APP_SESSION_COOKIE_NAME ?? 'session_id';
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const BASE_API_URL = 'http://localhost:8000';

const pool = new pg.Pool({
  connectionString: process.env.BENCH_DATABASE_URL,
  max: 10,
  idleTimeoutMillis: 30_000,
  connectionTimeoutMillis: 5_000,
  statement_timeout: 15_000,
});

const PRINCIPAL: pg.QueryConfig = {
  name: 'principal',
  text: `select s.id, u.organization_id, u.role
  from session s join app_user u on u.id = s.user_id join organization o on o.id = u.organization_id
 where s.token_hash = $1 and s.expires_at > now() and u.status = 'active' and o.status = 'active'`,
};
// The same columns, filter and order as PostgresProjectRepository.list.
const LIST_TEXT = `select id, organization_id, user_id, name, description, created_at, updated_at from project
 where organization_id = $1 order by created_at desc, id desc`;
const LIST: pg.QueryConfig = { name: 'list', text: LIST_TEXT };
const LIST_LIMITED: pg.QueryConfig = { name: 'list_limited', text: `${LIST_TEXT} limit $2` };
const USER_BY_EMAIL: pg.QueryConfig = {
  name: 'user_by_email',
  text: `select id, password_hash, credentials_version from app_user where email = $1 and status = 'active' and email_verified_at is not null`,
};
const INSERT_SESSION: pg.QueryConfig = {
  name: 'insert_session',
  text: `insert into session (user_id, token_hash, user_agent, ip, created_at, last_seen_at, expires_at, credentials_version)
  values ($1, $2, $3, $4, now(), now(), now() + interval '14 days', $5)`,
};

/** What the app's Koa stack puts on every response (helmet, our CSP and Cache-Control, CORS's Vary). */
const HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-site',
  'Origin-Agent-Cluster': '?1',
  'Referrer-Policy': 'no-referrer',
  'X-Content-Type-Options': 'nosniff',
  'X-DNS-Prefetch-Control': 'off',
  'X-Download-Options': 'noopen',
  'X-Frame-Options': 'DENY',
  'X-Permitted-Cross-Domain-Policies': 'none',
  'X-XSS-Protection': '0',
  Vary: 'Origin',
  'Content-Type': 'application/json; charset=utf-8',
};

interface ProjectRow {
  id: number;
  name: string;
  description: string | null;
  created_at: Date;
  updated_at: Date;
}

function readCookie(header: string | undefined): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === COOKIE_NAME) return part.slice(eq + 1).trim();
  }
  return undefined;
}

function send(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const json = JSON.stringify(body);
  res.writeHead(status, { ...HEADERS, ...extra, 'X-Request-Id': randomUUID(), 'Content-Length': Buffer.byteLength(json) });
  res.end(json);
}

const error = (code: string, message: string) => ({ code, message, error_id: randomUUID(), details: {} });

async function listProjects(cookie: string | undefined, limit: number | undefined, res: ServerResponse): Promise<void> {
  const token = readCookie(cookie);
  if (!token || !TOKEN_SHAPE.test(token)) return send(res, 401, error('UNAUTHORIZED', 'Authentication required'));
  const hash = createHash('sha256').update(token, 'utf8').digest('hex');
  const principal = (await pool.query<{ organization_id: number }>({ ...PRINCIPAL, values: [hash] })).rows[0];
  if (!principal) return send(res, 401, error('UNAUTHORIZED', 'Authentication required'));
  const query = limit === undefined ? { ...LIST, values: [principal.organization_id] } : { ...LIST_LIMITED, values: [principal.organization_id, limit + 1] };
  const rows = (await pool.query<ProjectRow>(query)).rows;
  const page = limit !== undefined && rows.length > limit ? rows.slice(0, limit) : rows;
  const extra: Record<string, string> = {};
  if (page !== rows) {
    const last = page[page.length - 1]!;
    const cursor = Buffer.from(`${last.created_at.toISOString()}|${last.id}`, 'utf8').toString('base64url');
    extra.Link = `<${BASE_API_URL}/projects?limit=${limit}&cursor=${encodeURIComponent(cursor)}>; rel="next"`;
  }
  const body = page.map((p) => ({
    id: p.id,
    name: p.name,
    description: p.description,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  }));
  send(res, 200, body, extra);
}

/** The app's pre-hash (adapters/crypto/bcrypt-password-hasher.ts): bcrypt reads SHA-256 of the password, base64. */
const prehash = (password: string) => createHash('sha256').update(password, 'utf8').digest('base64');

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function login(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let input: { email?: unknown; password?: unknown };
  try {
    input = JSON.parse(await readBody(req)) as typeof input;
  } catch {
    return send(res, 400, error('MALFORMED_REQUEST', 'The request body is not valid JSON'));
  }
  if (typeof input.email !== 'string' || typeof input.password !== 'string') return send(res, 422, error('VALIDATION_ERROR', 'The request is invalid'));
  const user = (await pool.query<{ id: number; password_hash: string; credentials_version: number }>({ ...USER_BY_EMAIL, values: [input.email.trim().toLowerCase()] })).rows[0];
  if (!user || !(await bcrypt.compare(prehash(input.password), user.password_hash))) {
    return send(res, 401, error('INVALID_CREDENTIALS', 'Invalid email or password'));
  }
  const token = randomBytes(32).toString('base64url');
  const tokenHash = createHash('sha256').update(token, 'utf8').digest('hex');
  await pool.query({ ...INSERT_SESSION, values: [user.id, tokenHash, req.headers['user-agent'] ?? null, req.socket.remoteAddress ?? null, user.credentials_version] });
  send(res, 200, { user_id: user.id }, { 'Set-Cookie': `${COOKIE_NAME}=${token}; Path=/; Max-Age=1209600; HttpOnly; SameSite=Lax` });
}

const failed = (res: ServerResponse) => (failure: unknown) => {
  process.stderr.write(`baseline: ${failure instanceof Error ? failure.message : String(failure)}\n`);
  if (!res.headersSent) send(res, 500, error('INTERNAL_ERROR', 'An unexpected error occurred'));
};

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'GET' && url.pathname === '/ping') return send(res, 200, { message: 'pong' });
  if (req.method === 'POST' && url.pathname === '/auth/login') return void login(req, res).catch(failed(res));
  if (req.method !== 'GET' || url.pathname !== '/projects') return send(res, 404, error('NOT_FOUND', 'No such route'));
  const limitParam = url.searchParams.get('limit');
  const limit = limitParam === null ? undefined : Number(limitParam);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 1000)) {
    return send(res, 422, error('VALIDATION_ERROR', 'The request is invalid'));
  }
  listProjects(req.headers.cookie, limit, res).catch(failed(res));
});
server.keepAliveTimeout = 5_000;
server.headersTimeout = 10_000;
server.requestTimeout = 30_000;

const shutdown = () => {
  server.close();
  server.closeIdleConnections();
  pool.end().finally(() => process.exit(0));
};
process.once('SIGTERM', shutdown);
process.once('SIGINT', shutdown);
server.listen(Number(process.env.BENCH_PORT ?? 8100), '127.0.0.1');
