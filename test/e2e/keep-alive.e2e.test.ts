import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';

/**
 * A request answered before its body is read (413, 401, 404 on a body route) must not poison the
 * connection: the client's next request on the same keep-alive socket must get its answer, not
 * ECONNRESET. Node's own agent with one socket makes the reuse certain.
 */
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

function send(agent: Agent, url: string, method: string, path: string, body?: { bytes: number; chunked?: boolean }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const payload = body ? Buffer.from(JSON.stringify({ name: 'x'.repeat(body.bytes) })) : undefined;
    const headers: Record<string, string> = payload ? { 'Content-Type': 'application/json' } : {};
    if (payload && !body?.chunked) headers['Content-Length'] = String(payload.length);
    const req = request(`${url}${path}`, { agent, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      res.on('error', reject);
    });
    // The server may answer and stop reading before the body is through: that is the case under
    // test, so a write error on the first request is not a failure; the next request is the check.
    req.on('error', reject);
    if (payload) {
      // Write in pieces, as a real client streams a large body.
      for (let at = 0; at < payload.length; at += 64 * 1024) req.write(payload.subarray(at, at + 64 * 1024));
    }
    req.end();
  });
}

describe('keep-alive after an early answer', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ APP_LOG_LEVEL: 'warn' });
  });
  afterAll(() => app?.close());

  const cases: { name: string; method: string; path: string; bytes: number; chunked?: boolean; status: number; closes?: boolean }[] = [
    { name: '413 on a declared 2 MiB body', method: 'POST', path: '/projects', bytes: 2 * 1024 * 1024, status: 413 },
    // A chunked body is read to its end (within the drain bound) before the answer, so the connection stays usable.
    { name: '413 on a chunked 2 MiB body', method: 'POST', path: '/auth/signup', bytes: 2 * 1024 * 1024, chunked: true, status: 413 },
    // Past the drain bound the rest is not waited for: the answer closes the connection.
    { name: '413 on a chunked body past the drain bound', method: 'POST', path: '/auth/signup', bytes: 10 * 1024 * 1024, chunked: true, status: 413, closes: true },
    { name: '401 on a body route without a session', method: 'POST', path: '/projects', bytes: 512 * 1024, status: 401 },
    { name: '404 on an unknown path with a body', method: 'POST', path: '/no-such-route', bytes: 512 * 1024, status: 404 },
    { name: '405 on a known path with a body', method: 'PUT', path: '/ping', bytes: 512 * 1024, status: 405 },
  ];

  it.each(cases)('$name: the next request on the same connection gets its answer', async ({ method, path, bytes, chunked, status, closes }) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await send(agent, app.url, method, path, { bytes, chunked });
      expect(first.status).toBe(status);
      expect(first.headers.connection).toBe(closes ? 'close' : 'keep-alive');
      expect(JSON.parse(first.body)).toMatchObject({ code: expect.any(String) });
      for (let i = 0; i < 3; i += 1) {
        const next = await send(agent, app.url, 'GET', '/ping');
        expect(next.status).toBe(200);
        expect(JSON.parse(next.body)).toEqual({ message: 'pong' });
      }
    } finally {
      agent.destroy();
    }
  });

  it('a small body the route never read keeps the connection alive', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await send(agent, app.url, 'POST', '/projects', { bytes: 100 });
      expect(first.status).toBe(401);
      expect(first.headers.connection).toBe('keep-alive');
      expect((await send(agent, app.url, 'GET', '/ping')).status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});
