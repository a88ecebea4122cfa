import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { pino } from 'pino';
import { createHttpApp } from './app';
import { defineRoute, type AnyRoute, type HttpMethod } from './route';
import { loadConfig } from '../config/config';

const answering = (method: HttpMethod, path: string, answer: string, extra: Partial<AnyRoute> = {}): AnyRoute =>
  defineRoute({
    method,
    path,
    tag: 'Test',
    operationId: `${method}${answer}`,
    summary: answer,
    description: answer,
    access: 'public',
    responses: { 200: { description: 'ok' } },
    handler: async ({ params, query }) => ({ status: 200, body: { answer, params: params ?? null, query: query ?? null } }),
    ...extra,
  });

// The router answers a fixed path without matching it per request when it can; whichever way,
// the route that answers is the one @koa/router would run first.
describe('routing', () => {
  let server: Server;
  let base: string;

  beforeAll(async () => {
    const app = createHttpApp({
      config: loadConfig({}).config,
      logger: pino({ level: 'silent' }),
      routes: [
        answering('post', '/things/{thing_id}', 'param', { params: v.object({ thing_id: v.string() }) }),
        answering('post', '/things/special', 'special-post'),
        answering('get', '/things/special', 'special-get', { query: v.object({ limit: v.optional(v.string()) }) }),
        answering('get', '/things/{thing_id}', 'param-get', { params: v.object({ thing_id: v.string() }) }),
        answering('get', '/', 'root'),
      ],
      authenticate: async () => {
        throw new Error('no sessions here');
      },
      rateLimiter: { consume: async () => ({ allowed: true }), check: async () => ({ allowed: true }), reset: async () => undefined },
      clientIp: () => '127.0.0.1',
      isDependencyDown: () => false,
    });
    server = createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const call = async (method: string, path: string) => {
    const res = await fetch(`${base}${path}`, { method });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null, allow: res.headers.get('allow') };
  };

  it('answers a fixed path with its route, a parameter path with its captured value', async () => {
    expect((await call('GET', '/things/special')).body).toMatchObject({ answer: 'special-get', query: {} });
    expect((await call('GET', '/things/special?limit=3')).body).toMatchObject({ answer: 'special-get', query: { limit: '3' } });
    expect((await call('GET', '/things/7')).body).toMatchObject({ answer: 'param-get', params: { thing_id: '7' } });
    expect((await call('GET', '/')).body).toMatchObject({ answer: 'root' });
    expect((await call('HEAD', '/things/special')).status).toBe(200);
  });

  it('serves a path ending in one slash as the path without it, query kept; never a doubled slash', async () => {
    expect((await call('GET', '/things/special/?limit=3')).body).toMatchObject({ answer: 'special-get', query: { limit: '3' } });
    expect((await call('GET', '/things/7/')).body).toMatchObject({ answer: 'param-get', params: { thing_id: '7' } });
    expect((await call('POST', '/things/special/')).body).toMatchObject({ answer: 'param', params: { thing_id: 'special' } });
    expect((await call('GET', '/things/7//')).status).toBe(404);
    expect((await call('GET', '/nothing/')).status).toBe(404);
  });

  it('lets a parameter route registered first keep a fixed path it matches', async () => {
    expect((await call('POST', '/things/special')).body).toMatchObject({ answer: 'param', params: { thing_id: 'special' } });
  });

  it('answers 404 and 405 as before: unknown path, known path with another method, OPTIONS', async () => {
    expect((await call('GET', '/nothing')).status).toBe(404);
    expect((await call('GET', '/things/special//')).status).toBe(404);
    expect((await call('GET', '//things/special')).status).toBe(404);
    expect((await call('GET', '/Things/special')).status).toBe(404);
    const wrong = await call('DELETE', '/things/special');
    expect(wrong.status).toBe(405);
    expect(wrong.allow).toBe('POST, HEAD, GET, OPTIONS');
    expect((await call('OPTIONS', '/')).allow).toBe('HEAD, GET, OPTIONS');
  });
});
