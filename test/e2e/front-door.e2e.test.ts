import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { HttpSession } from '../support/http-session';
import { tokenFromEmail } from '../support/mailbox';
import { STUB_MESSAGE } from '../../adapters/email/stub-mailer';
import { requirePostgres } from '../support/postgres';

/**
 * What a frontend generated for another backend sends, byte for byte as a browser sends it: a
 * verification link posted as it is (`?token=`, `Content-Length: 0`, no `Content-Type`), paths
 * with a trailing slash, CORS preflights for them, and the profile page's `PUT /users/me`.
 */
const postgres = await requirePostgres();
const ORIGIN = 'http://localhost:5173';
const PASSWORD = 'correct horse battery';
const BROWSER = { Origin: ORIGIN, 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0', Accept: '*/*' };

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  json: Record<string, unknown>;
}

let nextIp = 0;

/** One request with exactly these headers (Node adds only Host and Connection) and this body. */
function raw(app: TestApp, method: string, path: string, headers: Record<string, string>, body?: string): Promise<RawResponse> {
  nextIp += 1;
  const url = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: { 'X-Forwarded-For': `198.19.7.${nextIp}`, ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, json: text ? (JSON.parse(text) as Record<string, unknown>) : {} }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A browser's POST with nothing in it: `Content-Length: 0` and no `Content-Type`. */
const emptyPost = (app: TestApp, path: string, extra: Record<string, string> = {}) =>
  raw(app, 'POST', path, { ...BROWSER, 'Content-Length': '0', ...extra });

/** A browser's preflight before a credentialed JSON request. */
const preflight = (app: TestApp, path: string, method: string) =>
  raw(app, 'OPTIONS', path, { ...BROWSER, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': 'content-type' });

/** The headers a preflight answer is judged by, without the per-request id. */
function preflightShape(res: RawResponse) {
  const { 'x-request-id': _id, date: _date, connection: _connection, 'keep-alive': _keepAlive, ...headers } = res.headers;
  return { status: res.status, headers };
}

async function signUp(app: TestApp, email: string): Promise<HttpSession> {
  const browser = new HttpSession(app);
  expect((await browser.send('POST', '/auth/signup/', { email, password: PASSWORD, first_name: 'Ada' }, BROWSER)).status).toBe(201);
  return browser;
}

describe.skipIf(!postgres)('the front door, for frontends written for other backends', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('signup → verify (query form, empty body) → login → notes at /notes/ → rename yourself → logout', async () => {
    const email = 'journey@example.com';
    const browser = await signUp(app, email);
    const token = await tokenFromEmail(app, email, '/verify-email');

    const verified = await emptyPost(app, `/auth/verify-email?token=${encodeURIComponent(token)}`);
    expect([verified.status, verified.json]).toEqual([200, { success: true }]);
    expect(verified.headers['access-control-allow-origin']).toBe(ORIGIN);

    expect((await browser.send('POST', '/auth/login/', { email, password: PASSWORD }, BROWSER)).status).toBe(200);
    const created = await browser.send('POST', '/notes/', { title: 'First note' }, BROWSER);
    expect(created.status).toBe(201);
    const listed = await browser.send('GET', '/notes/', undefined, BROWSER);
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as Array<{ title: string }>).map((note) => note.title)).toEqual(['First note']);

    const renamed = await browser.send('PUT', '/users/me/', { first_name: ' Augusta ', last_name: 'King' }, BROWSER);
    expect(renamed.status).toBe(200);
    const me = (await (await browser.send('GET', '/users/me', undefined, BROWSER)).json()) as Record<string, unknown>;
    expect(await renamed.json()).toEqual(me);
    expect(me).toMatchObject({ email, first_name: 'Augusta', last_name: 'King', email_verified: true });

    expect((await browser.send('POST', '/auth/logout/', undefined, BROWSER)).status).toBe(204);
    expect((await browser.send('GET', '/users/me/', undefined, BROWSER)).status).toBe(401);
  });

  describe('POST /auth/verify-email?token=…', () => {
    it('takes the token from the query when the body is empty, in every shape a client sends "nothing"', async () => {
      const shapes: Array<[string, Record<string, string>, string | undefined]> = [
        ['Content-Length: 0, no Content-Type', { 'Content-Length': '0' }, undefined],
        ['Content-Length: 0, text/plain', { 'Content-Length': '0', 'Content-Type': 'text/plain;charset=UTF-8' }, undefined],
        ['Content-Length: 0, application/json', { 'Content-Length': '0', 'Content-Type': 'application/json' }, undefined],
        ['chunked, no bytes, form', { 'Transfer-Encoding': 'chunked', 'Content-Type': 'application/x-www-form-urlencoded' }, undefined],
        ['no length at all (curl)', {}, undefined],
      ];
      for (const [label, headers, body] of shapes) {
        const email = `shape-${shapes.findIndex(([l]) => l === label)}@example.com`;
        await signUp(app, email);
        const token = await tokenFromEmail(app, email, '/verify-email');
        const res = await raw(app, 'POST', `/auth/verify-email?token=${encodeURIComponent(token)}`, { ...BROWSER, ...headers }, body);
        expect([label, res.status, res.json]).toEqual([label, 200, { success: true }]);
      }
    });

    it('lets a token in the body win over one in the query', async () => {
      await signUp(app, 'wins@example.com');
      const token = await tokenFromEmail(app, 'wins@example.com', '/verify-email');
      const json = { ...BROWSER, 'Content-Type': 'application/json' };

      const bodyWrong = await raw(app, 'POST', `/auth/verify-email?token=${token}`, json, JSON.stringify({ token: 'not-the-token' }));
      expect([bodyWrong.status, bodyWrong.json.code]).toEqual([400, 'INVALID_TOKEN']);
      const bodyRight = await raw(app, 'POST', '/auth/verify-email?token=not-the-token', json, JSON.stringify({ token }));
      expect(bodyRight.status).toBe(200);
    });

    it('answers 422 naming body.token when neither carries one; a non-empty body of another type is 415', async () => {
      const none = await emptyPost(app, '/auth/verify-email');
      expect([none.status, none.json.code, none.json.details]).toEqual([422, 'VALIDATION_ERROR', { 'body.token': 'Required' }]);
      const text = await raw(app, 'POST', '/auth/verify-email?token=abc', { ...BROWSER, 'Content-Type': 'text/plain' }, 'token=abc');
      expect([text.status, text.json.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    });

    it('never writes the query string to a log line, whatever the answer', async () => {
      const secret = `secret-${Date.now()}-query-token`;
      await emptyPost(app, `/auth/verify-email?token=${secret}`); // 400 INVALID_TOKEN
      await emptyPost(app, `/auth/verify-email/?token=${secret}&x=1`);
      await raw(app, 'POST', `/auth/verify-email?token=${secret}`, { ...BROWSER, 'Content-Type': 'text/plain' }, 'x'); // 415
      await raw(app, 'GET', `/no/such/route?token=${secret}`, BROWSER); // 404
      await raw(app, 'DELETE', `/auth/verify-email?token=${secret}`, BROWSER); // 405
      await raw(app, 'POST', `/auth/verify-email?token=${secret}`, { ...BROWSER, 'Content-Type': 'application/json' }, '{oops'); // 400

      const lines = app.logs();
      const requests = lines.filter((line) => line.msg === 'request' && String(line.path).startsWith('/auth/verify-email'));
      expect(requests.length).toBeGreaterThanOrEqual(5);
      expect(requests.every((line) => line.path === '/auth/verify-email')).toBe(true);
      expect(lines.filter((line) => JSON.stringify(line).includes(secret))).toEqual([]);
    });

    it('keeps the emailed token out of every log line but the stub email itself', async () => {
      await signUp(app, 'quiet@example.com');
      const token = await tokenFromEmail(app, 'quiet@example.com', '/verify-email');
      expect((await emptyPost(app, `/auth/verify-email?token=${token}`)).status).toBe(200);
      const leaks = app.logs().filter((line) => line.msg !== STUB_MESSAGE && JSON.stringify(line).includes(token));
      expect(leaks).toEqual([]);
    });
  });

  describe('an empty body is no body, on every route', () => {
    it('answers 422 naming the missing fields, never 415, for Content-Length: 0 with or without a type', async () => {
      for (const type of [undefined, 'text/plain', 'application/json', 'application/x-www-form-urlencoded']) {
        const res = await emptyPost(app, '/auth/login', type ? { 'Content-Type': type } : {});
        expect([type, res.status, res.json.details]).toEqual([type, 422, { 'body.email': 'Required', 'body.password': 'Required' }]);
      }
      const chunked = await raw(app, 'POST', '/password/forgot', { ...BROWSER, 'Transfer-Encoding': 'chunked', 'Content-Type': 'text/plain' });
      expect([chunked.status, chunked.json.details]).toEqual([422, { 'body.email': 'Required' }]);
    });

    it('keeps 415 for a non-empty body of another media type, chunked or not', async () => {
      const form = await raw(app, 'POST', '/auth/login', { ...BROWSER, 'Content-Type': 'application/x-www-form-urlencoded' }, 'email=a%40b.c');
      expect([form.status, form.json.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      const chunked = await raw(app, 'POST', '/auth/login', { ...BROWSER, 'Transfer-Encoding': 'chunked', 'Content-Type': 'text/plain' }, 'hello');
      expect([chunked.status, chunked.json.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    });
  });

  describe('a trailing slash is the canonical path', () => {
    it('answers a preflight for /notes/ exactly as one for /notes, for every method', async () => {
      for (const method of ['GET', 'POST', 'PUT', 'DELETE']) {
        for (const [slashed, canonical] of [['/notes/', '/notes'], ['/notes/7/', '/notes/7'], ['/users/me/', '/users/me']] as const) {
          const [a, b] = [await preflight(app, slashed, method), await preflight(app, canonical, method)];
          expect(preflightShape(a)).toEqual(preflightShape(b));
          expect(a.status).toBe(204);
          expect(a.headers['access-control-allow-origin']).toBe(ORIGIN);
          expect(a.headers['access-control-allow-credentials']).toBe('true');
          expect(String(a.headers['access-control-allow-methods'])).toContain(method);
        }
      }
    });

    it('allows in a preflight every method the API description names, PATCH (renamePasskey) included', async () => {
      const doc = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, Record<string, unknown>> };
      const described = new Set(Object.values(doc.paths).flatMap((item) => Object.keys(item).map((method) => method.toUpperCase())));
      expect(described).toContain('PATCH');
      for (const method of described) {
        const answer = await preflight(app, '/passkeys/7/', method);
        expect(answer.status).toBe(204);
        expect(String(answer.headers['access-control-allow-methods']).split(',')).toContain(method);
      }
    });

    it('serves every method of a slashed path as the canonical one, query kept', async () => {
      const browser = await signUp(app, 'slash@example.com');
      await emptyPost(app, `/auth/verify-email/?token=${await tokenFromEmail(app, 'slash@example.com', '/verify-email')}`);
      expect((await browser.send('POST', '/auth/login', { email: 'slash@example.com', password: PASSWORD }, BROWSER)).status).toBe(200);
      const note = (await (await browser.send('POST', '/notes/', { title: 'a' }, BROWSER)).json()) as { id: number };
      await browser.send('POST', '/notes', { title: 'b' }, BROWSER);
      expect((await browser.send('GET', `/notes/${note.id}/`, undefined, BROWSER)).status).toBe(200);
      expect((await browser.send('PUT', `/notes/${note.id}/`, { title: 'a2' }, BROWSER)).status).toBe(200);
      const page = await browser.send('GET', '/notes/?limit=1', undefined, BROWSER);
      expect(((await page.json()) as unknown[]).length).toBe(1);
      expect(page.headers.get('link')).toMatch(/\/notes\?limit=1&cursor=/);
      expect((await browser.send('DELETE', `/notes/${note.id}/`, undefined, BROWSER)).status).toBe(204);
      const wrongMethod = await browser.send('PATCH', '/notes/', undefined, BROWSER);
      expect(wrongMethod.status).toBe(405);
      expect(app.logs().some((line) => line.msg === 'request' && line.path === '/notes' && line.method === 'DELETE')).toBe(false);
      expect(app.logs().some((line) => line.msg === 'request' && line.path === `/notes/${note.id}` && line.method === 'DELETE')).toBe(true);
    });

    it('leaves unknown paths 404 with or without the slash, and a doubled slash unknown', async () => {
      for (const path of ['/nothing', '/nothing/', '/notes//', '//notes', '/notes//7', '/users//me', '/notes/7//']) {
        const res = await raw(app, 'GET', path, BROWSER);
        expect([path, res.status, res.json.code]).toEqual([path, 404, 'NOT_FOUND']);
      }
      expect((await raw(app, 'GET', '/', BROWSER)).status).toBe(200);
    });

    it('lists only canonical paths in the OpenAPI description', async () => {
      const doc = (await (await app.request('/openapi.json/')).json()) as { paths: Record<string, unknown> };
      const paths = Object.keys(doc.paths);
      expect(paths).toContain('/notes');
      expect(paths.filter((path) => path !== '/' && path.endsWith('/'))).toEqual([]);
    });
  });

  describe('PUT /users/me', () => {
    async function loggedIn(email: string) {
      const browser = await signUp(app, email);
      await emptyPost(app, `/auth/verify-email?token=${await tokenFromEmail(app, email, '/verify-email')}`);
      expect((await browser.send('POST', '/auth/login', { email, password: PASSWORD }, BROWSER)).status).toBe(200);
      return browser;
    }

    it('sets the names given, clears with null, leaves the others, and answers the /users/me shape', async () => {
      const browser = await loggedIn('rename@example.com');
      const put = (body: unknown) => browser.send('PUT', '/users/me', body, BROWSER);

      expect(await (await put({ last_name: 'Lovelace' })).json()).toMatchObject({ first_name: 'Ada', last_name: 'Lovelace' });
      expect(await (await put({ first_name: null })).json()).toMatchObject({ first_name: null, last_name: 'Lovelace' });
      const last = await put({ first_name: '🚀'.repeat(100), last_name: null });
      expect(last.status).toBe(200);
      const body = (await last.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(
        ['created_at', 'email', 'email_verified', 'first_name', 'has_password', 'id', 'last_name', 'organization_id', 'organization_name', 'role'].sort(),
      );
      expect(body).toMatchObject({ first_name: '🚀'.repeat(100), last_name: null, role: { name: 'org_admin', precedence: 2 } });
    });

    it('refuses bad names, no names, other keys and other bodies with 422 naming the field, and changes nothing', async () => {
      const browser = await loggedIn('refuse@example.com');
      const cases: Array<[unknown, Record<string, string>]> = [
        [{ first_name: '   ' }, { 'body.first_name': 'Must not be empty' }],
        [{ first_name: 'a'.repeat(101) }, { 'body.first_name': 'Must be at most 100 characters' }],
        [{ first_name: 'Ada\r\nVisit https://evil.example' }, { 'body.first_name': 'Must not contain control characters (line breaks, tabs and the like)' }],
        [{ last_name: 'Tab\there' }, { 'body.last_name': 'Must not contain control characters (line breaks, tabs and the like)' }],
        [{ last_name: 'Del\u007F' }, { 'body.last_name': 'Must not contain control characters (line breaks, tabs and the like)' }],
        [{ first_name: 42 }, { 'body.first_name': 'Must be a string' }],
        [{}, { body: 'Give first_name, last_name or both' }],
        [{ first_name: 'Ada', email: 'mallory@example.com' }, { 'body.email': expect.stringContaining('Unknown field') }],
      ];
      for (const [body, details] of cases) {
        const res = await browser.send('PUT', '/users/me', body, BROWSER);
        expect(res.status).toBe(422);
        expect((await res.json()) as Record<string, unknown>).toMatchObject({ code: 'VALIDATION_ERROR', details });
      }
      const empty = await raw(app, 'PUT', '/users/me', { ...BROWSER, 'Content-Length': '0', Cookie: `session_id=${browser.cookie('session_id')}` });
      expect([empty.status, empty.json.details]).toEqual([422, { body: 'Give first_name, last_name or both' }]);
      const me = (await (await browser.send('GET', '/users/me', undefined, BROWSER)).json()) as Record<string, unknown>;
      expect(me).toMatchObject({ email: 'refuse@example.com', first_name: 'Ada', last_name: null });
    });

    it('needs a session, and a readonly member may rename themself', async () => {
      const anonymous = await raw(app, 'PUT', '/users/me', { ...BROWSER, 'Content-Type': 'application/json' }, '{"first_name":"x"}');
      expect([anonymous.status, anonymous.json.code]).toEqual([401, 'UNAUTHORIZED']);

      const admin = await loggedIn('team@example.com');
      const invitation = await admin.send('POST', '/invitations', { email: 'reader@example.com', role: 'readonly' }, BROWSER);
      expect(invitation.status).toBe(201);
      const token = await tokenFromEmail(app, 'reader@example.com', '/invite/accept');
      const reader = new HttpSession(app);
      expect((await reader.send('POST', '/invitations/accept', { token, password: PASSWORD }, BROWSER)).status).toBe(201);
      expect((await reader.send('POST', '/auth/login', { email: 'reader@example.com', password: PASSWORD }, BROWSER)).status).toBe(200);
      const renamed = await reader.send('PUT', '/users/me', { first_name: 'Reader' }, BROWSER);
      expect(renamed.status).toBe(200);
      expect(await renamed.json()).toMatchObject({ first_name: 'Reader', role: { name: 'readonly' } });
    });
  });
});
