import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, connect, type AddressInfo, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as v from 'valibot';
import type { Context } from 'koa';
import { loadConfig } from '../../app/config/config';
import { createContainer, isDependencyDown } from '../../app/container/container';
import type { Infrastructure } from '../../app/container/infrastructure';
import { TOKENS } from '../../app/container/tokens';
import { createHttpApp } from '../../app/http/app';
import { clientIpResolver } from '../../app/http/client-ip';
import { DOCS_CSP } from '../../app/http/docs-page';
import { defineRoute, type AnyRoute } from '../../app/http/route';
import { composeRoutes } from '../../app/server';
import { Database } from '../../adapters/postgres/database';
import { SystemClock } from '../../adapters/system/system-clock';
import { openOrm } from '../../adapters/postgres/orm';
import type { Caller } from '../../core/access/caller';
import { DomainError } from '../../core/shared/domain-error';
import { StubMailer } from '../../adapters/email/stub-mailer';
import { expectErrorResponse, expectSecurityHeaders, UUID } from '../support/http-assertions';
import { createMemoryLogger, startTestApp, TEST_APP_DEFAULTS, type LogLine, type TestApp } from '../support/app';
import { createTestDatabase, requirePostgres, type TestDatabase } from '../support/postgres';

const DEV_ORIGIN = 'http://localhost:5173';

/** A TCP hop between the app and PostgreSQL that a test can cut, to take the database away. */
async function tcpProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  const server = createTcpServer((client) => {
    const upstream = connect(target);
    for (const s of [client, upstream]) sockets.add(s);
    const drop = () => {
      for (const s of [client, upstream]) {
        s.destroy();
        sockets.delete(s);
      }
    };
    for (const s of [client, upstream]) s.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const s of sockets) s.destroy();
      await closed;
    },
    async restore() {
      await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    },
  };
}

/**
 * Routes the foundation does not have yet (a JSON body with a schema, path parameters, an
 * unexpected throw, a database read), mounted on the production stack: the same container,
 * composeRoutes (so they sit beside the system routes) and createHttpApp that startServer uses.
 */
function testRoutes(database: Database): AnyRoute[] {
  return [
    defineRoute({
      method: 'post',
      path: '/test/echo',
      tag: 'Test',
      operationId: 'testEcho',
      summary: 'Echoes a validated body',
      description: 'Echoes its body.',
      access: 'public',
      body: v.object({
        name: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty')),
        count: v.optional(v.pipe(v.number(), v.integer('must be an integer'))),
      }),
      responses: { 200: { description: 'Echo' } },
      handler: async ({ body }) => ({ status: 200, body }),
    }),
    defineRoute({
      method: 'get',
      path: '/test/items/{item_id}',
      tag: 'Test',
      operationId: 'testGetItem',
      summary: 'Validates a path parameter',
      description: 'Echoes its id.',
      access: 'public',
      params: v.object({ item_id: v.pipe(v.string(), v.regex(/^[1-9]\d{0,8}$/, 'must be a positive integer'), v.transform(Number)) }),
      responses: { 200: { description: 'Item' } },
      handler: async ({ params }) => ({ status: 200, body: { id: params.item_id } }),
    }),
    defineRoute({
      method: 'get',
      path: '/test/boom',
      tag: 'Test',
      operationId: 'testBoom',
      summary: 'Fails unexpectedly',
      description: 'Throws.',
      access: 'public',
      responses: { 200: { description: 'Never' } },
      handler: async () => {
        throw new Error('boom: select password_hash from app_user where token = secret-token-value');
      },
    }),
    defineRoute({
      method: 'get',
      path: '/test/db',
      tag: 'Test',
      operationId: 'testDb',
      summary: 'Reads the database',
      description: 'Counts rows.',
      access: 'public',
      responses: { 200: { description: 'Count' } },
      handler: async () => {
        const [row] = await database.select<{ n: number }>('select count(*)::int as n from organization', []);
        return { status: 200, body: { organizations: row!.n } };
      },
    }),
  ];
}

interface CustomApp {
  url: string;
  logs(): LogLine[];
  proxy: Awaited<ReturnType<typeof tcpProxy>>;
  close(): Promise<void>;
}

async function startAppWithTestRoutes(db: TestDatabase): Promise<CustomApp> {
  const target = new URL(db.url);
  const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const viaProxy = new URL(db.url);
  viaProxy.host = `127.0.0.1:${proxy.port}`;
  const { config } = loadConfig({ ...TEST_APP_DEFAULTS, APP_DATABASE_URL: viaProxy.toString() });
  const { logger, logs } = createMemoryLogger();
  const database = new Database(await openOrm({ clientUrl: viaProxy.toString(), poolMax: 2 }), new SystemClock());
  const mailer = new StubMailer(logger);
  const infra: Infrastructure = { clock: new SystemClock(), database, redis: undefined, rateLimitRedis: undefined, mailer, encryptionKey: Buffer.alloc(32), close: () => database.close() };
  const container = createContainer(config, logger, infra);
  container.bind(TOKENS.Routes).toConstantValue(testRoutes(database));
  const app = createHttpApp({
    config,
    logger,
    routes: composeRoutes(container, config),
    authenticate: async (_ctx: Context): Promise<Caller> => {
      throw new DomainError('UNAUTHORIZED', 'Authentication required');
    },
    rateLimiter: container.get(TOKENS.RateLimiter),
    clientIp: clientIpResolver(config.trustedProxyHops),
    isDependencyDown,
  });
  const server: Server = createHttpServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    logs,
    proxy,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await infra.close();
      await proxy.cut().catch(() => undefined);
    },
  };
}

const get = (base: string, path: string, init: RequestInit = {}) =>
  fetch(`${base}${path}`, { signal: AbortSignal.timeout(10_000), ...init });

const postJson = (base: string, path: string, body: string, headers: Record<string, string> = {}) =>
  get(base, path, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body });

const postgres = await requirePostgres();

describe.skipIf(!postgres)('foundation over HTTP', () => {
  let app: TestApp;
  let db: TestDatabase;
  let custom: CustomApp;

  beforeAll(async () => {
    app = await startTestApp();
    db = await createTestDatabase();
    custom = await startAppWithTestRoutes(db);
  });

  afterAll(async () => {
    await custom?.close();
    await db?.drop();
    await app?.close();
  });

  describe('system routes', () => {
    test('GET /ping answers pong with every security header', async () => {
      const res = await app.request('/ping');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ message: 'pong' });
      expectSecurityHeaders(res);
    });

    test('GET /health reports the database ok and Redis disabled', async () => {
      const res = await app.request('/health');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'disabled' } });
      expectSecurityHeaders(res);
    });

    test('GET /openapi.json is OpenAPI 3.1 and every operation has tags and a unique operationId', async () => {
      const res = await app.request('/openapi.json');
      expect(res.status).toBe(200);
      expectSecurityHeaders(res);
      const doc = (await res.json()) as { openapi: string; paths: Record<string, Record<string, { tags?: unknown; operationId?: unknown }>> };
      expect(doc.openapi).toBe('3.1.0');
      const operations = Object.values(doc.paths).flatMap((item) => Object.values(item));
      expect(operations.length).toBeGreaterThanOrEqual(4);
      for (const op of operations) {
        expect(Array.isArray(op.tags) && op.tags.length > 0).toBe(true);
        expect(op.operationId).toEqual(expect.any(String));
      }
      const ids = operations.map((op) => op.operationId);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids).toEqual(expect.arrayContaining(['ping', 'health']));
    });

    test('the OpenAPI description is generated from the schemas the routes validate with', async () => {
      const res = await get(custom.url, '/openapi.json');
      const doc = (await res.json()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
      const echo = doc.paths['/test/echo']!.post!;
      expect(echo.requestBody).toMatchObject({
        content: { 'application/json': { schema: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } } } },
      });
      expect(Object.keys(echo.responses as object)).toEqual(expect.arrayContaining(['200', '400', '413', '422', 'default']));
      expect(doc.paths['/test/items/{item_id}']!.get!.parameters).toEqual([
        expect.objectContaining({ name: 'item_id', in: 'path', required: true }),
      ]);
    });

    test('GET /docs is an HTML page with its own, relaxed CSP, whose scripts and styles this server serves', async () => {
      const res = await app.request('/docs');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expectSecurityHeaders(res, { csp: DOCS_CSP });
      expect(DOCS_CSP).toMatch(/^default-src 'none'; script-src 'self'; .*frame-ancestors 'none'$/);
      const html = await res.text();
      expect(html).toMatch(/^<!doctype html>/i);
      expect(html).toContain('<script src="docs/swagger-ui-bundle.js"></script>');
      const script = await app.request('/docs/swagger-ui-bundle.js');
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
      expectSecurityHeaders(script); // the API's strict CSP everywhere but on the page itself
      const style = await app.request('/docs/swagger-ui.css');
      expect(style.headers.get('content-type')).toMatch(/^text\/css/);
      expect(await (await app.request('/docs/reference.js')).text()).toContain('url: "openapi.json"');
    });

    test('GET / links to the reference, the description and the health probe', async () => {
      const res = await app.request('/');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ name: 'tenantkit', version: expect.any(String), docs: '/docs', openapi: '/openapi.json', health: '/health' });
      expectSecurityHeaders(res);
    });
  });

  describe('X-Request-Id', () => {
    test('a valid incoming id is echoed and carried by the log line', async () => {
      const id = 'Req.id_1:2-3';
      const res = await app.request('/ping', { headers: { 'X-Request-Id': id } });
      expect(res.headers.get('x-request-id')).toBe(id);
      expect(app.logs().some((line) => line.request_id === id && line.msg === 'request')).toBe(true);
    });

    test.each([
      ['with spaces', 'not a valid id'],
      ['too long', 'a'.repeat(129)],
      ['with a forbidden character', 'abc/def'],
    ])('an id %s is replaced by a fresh UUID', async (_label, id) => {
      const res = await app.request('/ping', { headers: { 'X-Request-Id': id } });
      expect(res.headers.get('x-request-id')).toMatch(UUID);
    });

    test('a missing id gets a fresh UUID, different per request', async () => {
      const [a, b] = await Promise.all([app.request('/ping'), app.request('/ping')]);
      expect(a.headers.get('x-request-id')).toMatch(UUID);
      expect(b.headers.get('x-request-id')).toMatch(UUID);
      expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
    });
  });

  describe('error responses carry the ErrorResponse shape and every security header', () => {
    test('400 MALFORMED_REQUEST for a body that is not JSON', async () => {
      const res = await postJson(custom.url, '/test/echo', '{"name": "x",', { 'X-Request-Id': 'malformed-1' });
      await expectErrorResponse(res, 400, 'MALFORMED_REQUEST');
      expectSecurityHeaders(res);
      expect(res.headers.get('x-request-id')).toBe('malformed-1');
    });

    test.each(['/no-such-route', '/no-such-route/', '/ping//', '//ping'])('404 NOT_FOUND for %s (one trailing slash is taken off, no more)', async (path) => {
      const res = await app.request(path);
      const body = await expectErrorResponse(res, 404, 'NOT_FOUND');
      expect(body.details).toEqual({});
      expectSecurityHeaders(res);
    });

    test('405 METHOD_NOT_ALLOWED with Allow for a known path', async () => {
      const res = await app.request('/ping', { method: 'DELETE' });
      await expectErrorResponse(res, 405, 'METHOD_NOT_ALLOWED');
      expectSecurityHeaders(res);
      const allow = (res.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      expect(allow.sort()).toEqual(['GET', 'HEAD', 'OPTIONS']);
      const options = await app.request('/ping', { method: 'OPTIONS' });
      expect(options.status).toBe(204);
      expect((options.headers.get('allow') ?? '').split(',').map((m) => m.trim()).sort()).toEqual(allow);
    });

    test('413 PAYLOAD_TOO_LARGE for a body over 1 MiB', async () => {
      const body = JSON.stringify({ name: 'x'.repeat(1024 * 1024) });
      expect(Buffer.byteLength(body)).toBeGreaterThan(1024 * 1024);
      const res = await postJson(custom.url, '/test/echo', body);
      await expectErrorResponse(res, 413, 'PAYLOAD_TOO_LARGE');
      expectSecurityHeaders(res);
    });

    test('a body just under 1 MiB is accepted', async () => {
      const res = await postJson(custom.url, '/test/echo', JSON.stringify({ name: 'x'.repeat(1024 * 1024 - 100) }));
      expect(res.status).toBe(200);
    });

    test('422 VALIDATION_ERROR maps each body field path to a message', async () => {
      const res = await postJson(custom.url, '/test/echo', JSON.stringify({ name: '   ', count: 1.5, ignored: true }));
      const body = await expectErrorResponse(res, 422, 'VALIDATION_ERROR');
      expect(body.details).toEqual({ 'body.name': 'must not be empty', 'body.count': 'must be an integer' });
      expectSecurityHeaders(res);
    });

    test('422 VALIDATION_ERROR for a bad path parameter, never a 500', async () => {
      const res = await get(custom.url, '/test/items/99999999999999999999');
      const body = await expectErrorResponse(res, 422, 'VALIDATION_ERROR');
      expect(body.details).toEqual({ 'path.item_id': 'must be a positive integer' });
      expectSecurityHeaders(res);
      expect((await get(custom.url, '/test/items/42')).status).toBe(200);
    });

    test('500 INTERNAL_ERROR is generic; the log holds the error id and the cause', async () => {
      const res = await get(custom.url, '/test/boom', { headers: { 'X-Request-Id': 'boom-1' } });
      const body = await expectErrorResponse(res, 500, 'INTERNAL_ERROR');
      expect(body.message).toBe('An unexpected error occurred');
      expect(body.details).toEqual({});
      expect(JSON.stringify(body)).not.toMatch(/boom|select|secret-token/);
      expectSecurityHeaders(res);
      const logged = custom.logs().find((line) => line.error_id === body.error_id);
      expect(logged).toMatchObject({ level: 50, request_id: 'boom-1', code: 'INTERNAL_ERROR', status: 500 });
      expect((logged!.err as { stack?: string }).stack).toContain('boom');
    });
  });

  describe('CORS', () => {
    test('an allowed origin gets Access-Control-Allow-Origin and credentials', async () => {
      const res = await app.request('/ping', { headers: { Origin: DEV_ORIGIN } });
      expect(res.headers.get('access-control-allow-origin')).toBe(DEV_ORIGIN);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expectSecurityHeaders(res);
    });

    test('errors keep the CORS headers, so the browser can read them', async () => {
      const res = await app.request('/nope', { headers: { Origin: DEV_ORIGIN } });
      expect(res.status).toBe(404);
      expect(res.headers.get('access-control-allow-origin')).toBe(DEV_ORIGIN);
    });

    test('a preflight from an allowed origin answers 204 with the security headers', async () => {
      const res = await app.request('/ping', {
        method: 'OPTIONS',
        headers: { Origin: DEV_ORIGIN, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'content-type' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(DEV_ORIGIN);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('access-control-allow-methods')).toContain('GET');
      expectSecurityHeaders(res);
    });

    test('a disallowed origin gets no Access-Control-Allow-Origin, on requests and preflights', async () => {
      const simple = await app.request('/ping', { headers: { Origin: 'https://evil.example' } });
      expect(simple.status).toBe(200);
      expect(simple.headers.get('access-control-allow-origin')).toBeNull();
      expect(simple.headers.get('access-control-allow-credentials')).toBeNull();
      const preflight = await app.request('/ping', {
        method: 'OPTIONS',
        headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'GET' },
      });
      expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
      expectSecurityHeaders(preflight);
    });
  });

  test('the access log line has method, path, status, ms and request_id, never the query or cookies', async () => {
    const res = await app.request('/ping?token=query-secret-value&x=1', {
      headers: { 'X-Request-Id': 'access-log-1', Cookie: 'session_id=cookie-secret-value' },
    });
    expect(res.status).toBe(200);
    const lines = app.logs().filter((line) => line.request_id === 'access-log-1');
    const access = lines.find((line) => line.msg === 'request');
    expect(access).toMatchObject({ method: 'GET', path: '/ping', status: 200, request_id: 'access-log-1' });
    expect(access!.ms).toEqual(expect.any(Number));
    const text = JSON.stringify(lines);
    expect(text).not.toContain('query-secret-value');
    expect(text).not.toContain('cookie-secret-value');
    expect(text).not.toContain('?');
  });

  test('outside dev, HSTS is on every response and CORS defaults to the web origin', async () => {
    const prod = await startTestApp({
      // beta: the same cookies and settings as prod, and it still accepts the stub mailer the test reads.
      APP_ENVIRONMENT: 'beta',
      APP_BASE_WEB_URL: 'https://app.example.test/',
      APP_BASE_API_URL: 'https://api.example.test',
      APP_CRON_SECRET: 'c'.repeat(32),
      APP_JWT_SECRET_KEY: 'j'.repeat(32),
      APP_EMAIL_PROVIDER: 'stub',
      APP_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    });
    try {
      const ok = await prod.request('/ping', { headers: { Origin: 'https://app.example.test' } });
      expect(ok.status).toBe(200);
      expectSecurityHeaders(ok, { hsts: true });
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.test');
      const missing = await prod.request('/nope', { headers: { Origin: DEV_ORIGIN } });
      await expectErrorResponse(missing, 404, 'NOT_FOUND');
      expectSecurityHeaders(missing, { hsts: true });
      expect(missing.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await prod.close();
    }
  });

  describe('503 SERVICE_UNAVAILABLE when the database is unreachable', () => {
    test('the real server waits for a database that comes up within APP_DATABASE_STARTUP_WAIT_SECONDS, then serves', { timeout: 60_000 }, async () => {
      const target = new URL(db.url);
      const proxy = await tcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      await proxy.cut();
      const viaProxy = new URL(db.url);
      viaProxy.host = `127.0.0.1:${proxy.port}`;
      const starting = startTestApp({ APP_DATABASE_URL: viaProxy.toString(), APP_DATABASE_STARTUP_WAIT_SECONDS: '30' });
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await proxy.restore();
      const late = await starting;
      try {
        const res = await late.request('/health');
        expect(res.status).toBe(200);
        const messages = late.logs().map((line) => String(line.msg));
        expect(messages.filter((message) => message.startsWith('database unreachable'))).toHaveLength(1);
        expect(messages).toContain('database reachable: starting');

        // Then an outage while it runs: the jobs (email delivery polls every second) say so once, and once when it ends.
        await proxy.cut();
        await new Promise((resolve) => setTimeout(resolve, 4_000));
        await proxy.restore();
        const deadline = Date.now() + 10_000;
        while (!late.logs().some((line) => line.msg === 'jobs resumed: the service answers again') && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        const jobLines = late.logs().filter((line) => /^job|^jobs/.test(String(line.msg)) && line.level !== 20);
        expect(jobLines.map((line) => line.msg)).toEqual([
          'jobs paused: a required service is unreachable; each job retries every period',
          'jobs resumed: the service answers again',
        ]);
      } finally {
        await late.close();
        await proxy.cut();
      }
    });

    test('a running app answers 503 with Retry-After while the database is gone, and recovers', async () => {
      expect((await get(custom.url, '/test/db')).status).toBe(200);
      await custom.proxy.cut();
      try {
        const health = await get(custom.url, '/health');
        expect(health.status).toBe(503);
        expect(await health.json()).toEqual({ status: 'unavailable', checks: { database: 'down', redis: 'disabled' } });
        expectSecurityHeaders(health);

        const res = await get(custom.url, '/test/db');
        await expectErrorResponse(res, 503, 'SERVICE_UNAVAILABLE');
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
        expectSecurityHeaders(res);
      } finally {
        await custom.proxy.restore();
      }
      let status = 0;
      for (let attempt = 0; attempt < 20 && status !== 200; attempt += 1) {
        status = (await get(custom.url, '/test/db')).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(status).toBe(200);
    });
  });
});
