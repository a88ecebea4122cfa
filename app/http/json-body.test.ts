import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import Koa from 'koa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setBody } from './json-body';

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: string;
}

const BODIES: Record<string, () => unknown> = {
  object: () => ({ id: 1, name: 'Ünïcødé ✓', when: new Date(Date.UTC(2026, 10, 26)), nested: { list: [1, 'two', null] }, gone: undefined }),
  array: () => [{ a: 1 }, { b: [] }],
  empty: () => ({}),
  string: () => 'plain text',
  null: () => null,
  stream: () => Readable.from(['{"streamed":', 'true}']),
};

/**
 * A server answering /<body>/<how>: `koa` hands the value to Koa as routes did before, `ours`
 * goes through setBody. ?type= sets a Content-Type first, as a route may.
 */
async function serve(): Promise<{ base: string; close(): Promise<void> }> {
  const app = new Koa();
  app.use((ctx) => {
    const [, name, how] = ctx.path.split('/');
    const type = ctx.query.type;
    if (typeof type === 'string') ctx.res.setHeader('Content-Type', type);
    ctx.status = 201;
    const body = BODIES[name!]!();
    if (how === 'ours') setBody(ctx, body);
    else ctx.body = body;
  });
  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function answer(base: string, path: string, method = 'GET'): Promise<Answer> {
  const response = await fetch(base + path, { method });
  const headers: Record<string, string | null> = {};
  for (const name of ['content-type', 'content-length', 'transfer-encoding']) headers[name] = response.headers.get(name);
  return { status: response.status, headers, body: await response.text() };
}

describe('setBody: the same answer as Koa given the value', () => {
  let served: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    served = await serve();
  });
  afterAll(() => served.close());

  for (const name of Object.keys(BODIES)) {
    for (const query of ['', '?type=application/problem%2Bjson', '?type=application/x-ndjson']) {
      for (const method of ['GET', 'HEAD']) {
        it(`${method} ${name}${query}`, async () => {
          const theirs = await answer(served.base, `/${name}/koa${query}`, method);
          const ours = await answer(served.base, `/${name}/ours${query}`, method);
          expect(ours).toEqual(theirs);
        });
      }
    }
  }

  it('gives a plain object the JSON type and its exact length', async () => {
    const ours = await answer(served.base, '/object/ours');
    expect(ours.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(ours.headers['content-length'])).toBe(Buffer.byteLength(ours.body));
    expect(JSON.parse(ours.body)).toEqual({ id: 1, name: 'Ünïcødé ✓', when: '2026-11-26T00:00:00.000Z', nested: { list: [1, 'two', null] } });
  });

  it('keeps a JSON type the route set, and replaces one that is not JSON', async () => {
    expect((await answer(served.base, '/object/ours?type=application/problem%2Bjson')).headers['content-type']).toBe('application/problem+json');
    expect((await answer(served.base, '/object/ours?type=application/x-ndjson')).headers['content-type']).toBe('application/json; charset=utf-8');
  });
});
