/**
 * The W1 baseline: GET /projects on raw node:http + pg, doing the app's work with nothing in
 * between. Cookie → SHA-256 → one principal query (session ⋈ app_user ⋈ organization, with the
 * validity checks) → the same list query → the same JSON and the same response headers. No
 * framework, no router, no validation library, no access log, no DI, no ORM layer.
 *
 *   BENCH_DATABASE_URL=postgres://… BENCH_PORT=8100 node --import tsx test/bench/baseline-server.ts
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
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

const PRINCIPAL_SQL = `select s.id, u.organization_id, u.role
  from session s join app_user u on u.id = s.user_id join organization o on o.id = u.organization_id
 where s.token_hash = $1 and s.expires_at > now() and u.status = 'active' and o.status = 'active'`;
// The same columns, filter and order as PostgresProjectRepository.list.
const LIST_SQL = `select id, organization_id, user_id, name, description, created_at, updated_at from project
 where organization_id = $1 order by created_at desc, id desc`;

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
  const principal = (await pool.query<{ organization_id: number }>(PRINCIPAL_SQL, [hash])).rows[0];
  if (!principal) return send(res, 401, error('UNAUTHORIZED', 'Authentication required'));
  const sql = limit === undefined ? LIST_SQL : `${LIST_SQL} limit $2`;
  const params = limit === undefined ? [principal.organization_id] : [principal.organization_id, limit + 1];
  const rows = (await pool.query<ProjectRow>(sql, params)).rows;
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

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'GET' && url.pathname === '/ping') return send(res, 200, { message: 'pong' });
  if (req.method !== 'GET' || url.pathname !== '/projects') return send(res, 404, error('NOT_FOUND', 'No such route'));
  const limitParam = url.searchParams.get('limit');
  const limit = limitParam === null ? undefined : Number(limitParam);
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1 && limit <= 1000)) {
    return send(res, 422, error('VALIDATION_ERROR', 'The request is invalid'));
  }
  listProjects(req.headers.cookie, limit, res).catch((failure: unknown) => {
    process.stderr.write(`baseline: ${failure instanceof Error ? failure.message : String(failure)}\n`);
    if (!res.headersSent) send(res, 500, error('INTERNAL_ERROR', 'An unexpected error occurred'));
  });
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
