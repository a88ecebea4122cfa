import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { defineRoute, type AnyRoute, type HttpMethod } from './route';
import { serveRoutes } from '../../test/support/router-server';

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
  let served: Awaited<ReturnType<typeof serveRoutes>>;
  let base: string;

  beforeAll(async () => {
    served = await serveRoutes(
      [
        answering('post', '/things/{thing_id}', 'param', { params: v.object({ thing_id: v.string() }) }),
        answering('post', '/things/special', 'special-post'),
        answering('get', '/things/special', 'special-get', { query: v.object({ limit: v.optional(v.string()) }) }),
        answering('get', '/things/{thing_id}', 'param-get', { params: v.object({ thing_id: v.string() }) }),
        answering('get', '/', 'root'),
      ],
      async () => {
        throw new Error('no sessions here');
      },
    );
    base = served.base;
  });
  afterAll(() => served.close());

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
