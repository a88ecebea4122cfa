import fc from 'fast-check';
import type { Context } from 'koa';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Caller } from '../../../core/access/caller';
import { Writable } from 'node:stream';
import pino from 'pino';
import { createAppLogger, createLogger } from '../../logging';
import { canonicalIp } from '../client-ip';
import { accessLog, startRequest } from './request-context';

function capture(): { lines: string[]; destination: { write(chunk: string): void } } {
  const lines: string[] = [];
  return { lines, destination: { write: (chunk: string) => lines.push(chunk) } };
}

interface Request {
  requestId: string;
  method: string;
  path: string;
  status: number;
  elapsed: number;
  ip: string;
  caller: Caller | undefined;
}

const fakeCtx = (r: Request) => ({ method: r.method, path: r.path, status: r.status, state: { caller: r.caller } }) as unknown as Context;

const caller = (fields: Record<string, unknown>) => ({ organizationId: 1, role: 'member', mfaSatisfied: true, ...fields }) as unknown as Caller;

/** The access line as `accessLog` writes it, and as pino writes the same fields, at the same instant. */
function bothLines(r: Request): [string, string] {
  vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 10, 27, 3, 4, 5, 678));
  const now = 1_000_000;
  const started = now - r.elapsed;
  vi.spyOn(performance, 'now').mockReturnValue(now);
  const ours = capture();
  accessLog(createLogger('info', ours.destination), () => r.ip)(fakeCtx(r), r.requestId, started);
  const pinos = capture();
  const fields = {
    request_id: r.requestId,
    method: r.method,
    path: r.path,
    status: r.status,
    ms: Math.round((now - started) * 10) / 10,
    ip: r.ip,
    user_id: r.caller?.kind === 'user' ? r.caller.userId : null,
  };
  createLogger('info', pinos.destination).info(r.caller?.kind === 'api_key' ? { ...fields, api_key_id: r.caller.apiKeyId } : fields, 'request');
  vi.restoreAllMocks();
  return [ours.lines[0]!, pinos.lines[0]!];
}

const request = (overrides: Partial<Request> = {}): Request => ({
  requestId: '3f1d9a2e-7a7b-4d8c-9e0f-000000000001',
  method: 'GET',
  path: '/projects',
  status: 200,
  elapsed: 1.23,
  ip: '203.0.113.9',
  caller: undefined,
  ...overrides,
});

describe('the access line', () => {
  afterEach(() => vi.restoreAllMocks());

  it('is, byte for byte, the line pino writes for the same fields', () => {
    const [ours, pinos] = bothLines(request({ caller: caller({ kind: 'user', userId: 42, sessionId: 7 }) }));
    expect(ours).toBe(pinos);
    expect(JSON.parse(ours)).toMatchObject({ level: 30, time: '2026-11-27T03:04:05.678Z', service: 'tenantkit', request_id: '3f1d9a2e-7a7b-4d8c-9e0f-000000000001', method: 'GET', path: '/projects', status: 200, ms: 1.2, ip: '203.0.113.9', user_id: 42, msg: 'request' });
  });

  it('is pino\'s line for any path, status, duration, address and caller', () => {
    const odd = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 3 }), fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u007f', '\u2028', 'é', '😀'));
    const address = fc.oneof(fc.ipV4(), fc.ipV6().map((ip) => canonicalIp(ip) ?? 'unknown'), fc.constant('unknown'));
    const callers = fc.oneof(
      fc.constant(undefined),
      fc.nat().map((userId) => caller({ kind: 'user', userId, sessionId: 1 })),
      fc.nat().map((apiKeyId) => caller({ kind: 'api_key', apiKeyId })),
    );
    fc.assert(
      fc.property(
        fc.record({
          requestId: fc.oneof(fc.uuid(), fc.string({ unit: fc.constantFrom(...'AZaz09._:-'), minLength: 1, maxLength: 128 })),
          method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'M-SEARCH'),
          path: fc.array(fc.oneof(fc.string({ maxLength: 6 }), odd), { maxLength: 8 }).map((parts) => `/${parts.join('')}`),
          status: fc.integer({ min: 100, max: 599 }),
          elapsed: fc.oneof(fc.double({ min: 0, max: 1e6, noNaN: true }), fc.constantFrom(0, 0.04, 0.05, 12.35, 99999.95)),
          ip: address,
          caller: callers,
        }),
        (r) => {
          const [ours, pinos] = bothLines(r);
          expect(ours).toBe(pinos);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("goes through pino's own path for a logger whose lines it cannot prebuild: the same fields", () => {
    const lines: string[] = [];
    const logger = pino({ base: { service: 'tenantkit' }, mixin: () => ({ extra: 1 }) }, { write: (line: string) => lines.push(line) });
    const apiKey = caller({ kind: 'api_key', apiKeyId: 9 });
    accessLog(logger, () => '198.51.100.7')(fakeCtx(request({ caller: apiKey })), 'rid-1', performance.now() - 3);
    expect(JSON.parse(lines[0]!)).toMatchObject({ extra: 1, request_id: 'rid-1', method: 'GET', path: '/projects', status: 200, ip: '198.51.100.7', user_id: null, api_key_id: 9, msg: 'request' });
  });

  it('writes a readable entry through the development terminal logger (pino-pretty), where it used to refuse to start', () => {
    const chunks: string[] = [];
    const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => (chunks.push(chunk.toString()), done()) });
    const logger = createAppLogger({ logLevel: 'info', logFormat: 'pretty', environment: 'dev' }, { isTty: false, stream });
    accessLog(logger, () => '203.0.113.9')(fakeCtx(request({ caller: caller({ kind: 'user', userId: 42, sessionId: 7 }) })), 'rid-2', performance.now() - 1);
    const text = chunks.join('');
    expect(text).toContain('request');
    expect(text).toContain('/projects');
    expect(text).toContain('rid-2');
    expect(text).toContain('user_id: 42');
  });

  it('still writes valid JSON for a path holding half a surrogate pair (pino would write it raw)', () => {
    const [ours] = bothLines(request({ path: '/a\uD800b' }));
    expect(JSON.parse(ours)).toMatchObject({ path: '/a\uD800b' });
  });

  it("writes nothing into the line that its fields' JSON would need to escape but the path", () => {
    // The request id, the method and the address are written unescaped: none can hold a quote,
    // a backslash or a control character, whatever the client sends.
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' })), (header) => {
        const ctx = { req: { headers: { 'x-request-id': header } }, res: { setHeader: () => undefined } } as unknown as Context;
        const id = startRequest(ctx, createLogger('silent'));
        expect(JSON.stringify(id)).toBe(`"${id}"`);
        const ip = canonicalIp(header);
        if (ip !== null) expect(ip).toMatch(/^[0-9a-f.:]+$/);
      }),
    );
  });
});
