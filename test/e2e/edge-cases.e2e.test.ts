import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { expectErrorResponse, expectSecurityHeaders } from '../support/http-assertions';
import { testSessions } from '../support/sessions';

/** Corners of the contract found by a black-box audit of the running service; each was wrong once. */
describe('edge cases of the HTTP contract', () => {
  let app: TestApp;
  let cookie: string;
  let client = 0;
  const json = (body: string, headers: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': `192.0.2.${(client += 1)}`, ...headers },
    body,
  });

  beforeAll(async () => {
    app = await startTestApp();
    const sessions = testSessions(app.db!.database);
    cookie = `session_id=${(await sessions.loginAs('member', await sessions.newOrganization())).token}`;
  });
  afterAll(() => app?.close());

  it('a body over 1 MiB is 413 whatever its content type', async () => {
    for (const type of ['text/plain', 'application/octet-stream', 'application/x-www-form-urlencoded']) {
      const res = await app.request('/auth/signup', { method: 'POST', headers: { 'Content-Type': type }, body: 'x'.repeat(1024 * 1024 + 1) });
      expectSecurityHeaders(res);
      await expectErrorResponse(res, 413, 'PAYLOAD_TOO_LARGE');
    }
  });

  it('a corrupt compressed body is 400, not 500; a valid gzip body is read', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      await expectErrorResponse(await app.request('/auth/login', json('not compressed', { 'Content-Encoding': encoding })), 400, 'MALFORMED_REQUEST');
    }
    const gz = gzipSync(JSON.stringify({ email: 'nobody@example.com', password: 'password123' }));
    const res = await app.request('/auth/login', { ...json(''), headers: { ...json('').headers, 'Content-Encoding': 'gzip' }, body: gz });
    await expectErrorResponse(res, 401, 'INVALID_CREDENTIALS');
  });

  it('valid JSON that is not an object is 422, not "not valid JSON"; an array never passes as an object', async () => {
    for (const body of ['null', 'true', '5', '"x"', '[]']) {
      const res = await app.request('/auth/signup', json(body));
      const error = await expectErrorResponse(res, 422, 'VALIDATION_ERROR');
      expect(error.details).toEqual({ body: 'Must be a JSON object' });
    }
    const put = await app.request('/projects/1', { ...json('[]'), method: 'PUT', headers: { ...json('').headers, Cookie: cookie } });
    await expectErrorResponse(put, 422, 'VALIDATION_ERROR');
  });

  it('a route without a body ignores one: POST /ping with a corrupt body is still 405', async () => {
    const res = await app.request('/ping', json('not gzip', { 'Content-Encoding': 'gzip' }));
    await expectErrorResponse(res, 405, 'METHOD_NOT_ALLOWED');
  });

  it('malformed JSON still counts toward the login limit (the limit comes first)', async () => {
    const ip = { 'X-Forwarded-For': '192.0.2.250' };
    const statuses = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await app.request('/auth/login', { ...json('{bad'), headers: { 'Content-Type': 'application/json', ...ip } })).status);
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });

  it('paths are case-sensitive: /PING is 404', async () => {
    await expectErrorResponse(await app.request('/PING'), 404, 'NOT_FOUND');
    await expectErrorResponse(await app.request('/Users/Me'), 404, 'NOT_FOUND');
  });

  it('lengths count characters (code points): 200 emoji make a valid project name, 201 do not', async () => {
    const create = (name: string) => app.request('/projects', { ...json(JSON.stringify({ name })), headers: { ...json('').headers, Cookie: cookie } });
    const ok = await create('😀'.repeat(200));
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as { name: string }).name).toBe('😀'.repeat(200));
    await expectErrorResponse(await create('😀'.repeat(201)), 422, 'VALIDATION_ERROR');
  });

  it('text that PostgreSQL cannot store as given is 422: NUL, unpaired surrogates', async () => {
    for (const name of ['a\u0000b', '\ud800lone']) {
      const res = await app.request('/projects', { ...json(JSON.stringify({ name })), headers: { ...json('').headers, Cookie: cookie } });
      await expectErrorResponse(res, 422, 'VALIDATION_ERROR');
    }
    const signup = await app.request('/auth/signup', json(JSON.stringify({ email: 'nul@example.com', password: 'password123', first_name: 'a\u0000b' })));
    await expectErrorResponse(signup, 422, 'VALIDATION_ERROR');
  });

  it('a missing field says "Required"; a blank optional name is stored as null', async () => {
    const missing = await expectErrorResponse(await app.request('/auth/signup', json('{}')), 422, 'VALIDATION_ERROR');
    expect(missing.details).toMatchObject({ 'body.email': 'Required', 'body.password': 'Required' });

    const signup = await app.request('/auth/signup', json(JSON.stringify({ email: 'blank@example.com', password: 'password123', first_name: 'Ann', last_name: '   ' })));
    expect(signup.status).toBe(201);
    const [row] = await app.db!.database.select('select first_name, last_name from app_user where email = $1', ['blank@example.com']);
    expect(row).toEqual({ first_name: 'Ann', last_name: null });
  });

  it('the OpenAPI description types ids as integers and documents the password maximum', async () => {
    const doc = JSON.stringify(await (await app.request('/openapi.json')).json());
    type Schema = { $ref?: string; properties?: Record<string, { type?: string; maxLength?: number }> };
    const spec = JSON.parse(doc) as {
      paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Schema }> }; responses: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
      components: { schemas: Record<string, Schema> };
    };
    const named = (schema: Schema) => (schema.$ref ? spec.components.schemas[schema.$ref.replace('#/components/schemas/', '')]! : schema);
    const signup = spec.paths['/auth/signup']!.post!;
    expect(named(signup.responses['201']!.content!['application/json']!.schema).properties!.user_id!.type).toBe('integer');
    expect(named(signup.requestBody!.content['application/json']!.schema).properties!.password!.maxLength).toBe(64);
    expect(doc).not.toMatch(/"(id|user_id|organization_id)":\{"type":"number"/);
  });
});

describe('B2B mode', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ APP_MODE: 'b2b' });
  });
  afterAll(() => app?.close());

  it('signup routes are not served: 404 for every method and every attempt, never 429 or 405, yet described as in B2C', async () => {
    const statuses = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await app.request('/auth/signup', { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '192.0.2.99' }, body: '{}' });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404]);
    await expectErrorResponse(await app.request('/auth/signup-org'), 404, 'NOT_FOUND');
    const paths = Object.keys(((await (await app.request('/openapi.json')).json()) as { paths: object }).paths);
    // The description is the same in both modes, so a client generated from either works with both.
    expect(paths).toContain('/auth/signup');
    expect(paths).toContain('/auth/signup-org');
  });
});

describe('requests rejected by the HTTP parser itself', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  /** Speaks raw HTTP/1.1, since fetch refuses to send these requests at all. */
  async function raw(request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
    const { connect } = await import('node:net');
    const url = new URL(app.url);
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => socket.write(request));
      let data = '';
      socket.setTimeout(5_000, () => socket.destroy(new Error('no answer in 5 s')));
      socket.on('data', (chunk) => (data += chunk.toString('utf8')));
      socket.on('error', reject);
      socket.on('close', () => {
        const [head = '', body = ''] = data.split('\r\n\r\n');
        const [statusLine = '', ...lines] = head.split('\r\n');
        const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
      });
    });
  }

  it.each([
    ['an unknown method', 'FOO /ping HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ['headers over the size limit', `GET /ping HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ])('%s gets an ErrorResponse with the security headers', async (_name, request, status) => {
    const res = await raw(request);
    expect(res.status).toBe(status);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(res.body)).toMatchObject({ code: 'MALFORMED_REQUEST', error_id: expect.any(String), details: {} });
  });
});
