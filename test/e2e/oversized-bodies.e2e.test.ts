import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app';
import { requirePostgres } from '../support/postgres';
import { testSessions } from '../support/sessions';

/**
 * A body over the 1 MiB limit sent chunked, as Node's `fetch` (undici) streams one: the server
 * finds out it is too large only while reading it, and must still let the client read the 413.
 * Closing while the client is still sending shows up there as EPIPE or "other side closed" in
 * place of the answer, on a different few routes each run, so every body route is tried, three
 * times over.
 */
const postgres = await requirePostgres();
const CHUNK = 64 * 1024;
const TOTAL = 2 * 1024 * 1024;
const ROUNDS = 3;

/** A JSON object of TOTAL bytes, streamed in 64 KiB pieces with a pause now and then, as a slow uploader sends it. */
function streamedBody(): ReadableStream<Uint8Array> {
  const head = new TextEncoder().encode('{"name":"');
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent === 0) {
        controller.enqueue(head);
        sent += head.length;
        return;
      }
      if (sent >= TOTAL) {
        controller.enqueue(new TextEncoder().encode('"}'));
        controller.close();
        return;
      }
      if ((sent / CHUNK) % 8 < 1) await new Promise((resolve) => setTimeout(resolve, 5));
      controller.enqueue(new Uint8Array(CHUNK).fill(0x61));
      sent += CHUNK;
    },
  });
}

interface Operation {
  method: string;
  path: string;
  operationId: string;
}

describe.skipIf(!postgres)('a chunked body over the limit, sent by Node fetch', () => {
  let app: TestApp;
  let operations: Operation[];
  let cookie: string;
  let ip = 0;

  beforeAll(async () => {
    app = await startTestApp({ APP_LOG_LEVEL: 'warn' });
    const doc = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<string, Record<string, { operationId: string; requestBody?: unknown }>>;
    };
    operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method, op]) => ['post', 'put'].includes(method) && op.requestBody)
        .map(([method, op]) => ({ method: method.toUpperCase(), path: path.replace(/\{\w+\}/g, '1'), operationId: op.operationId })),
    );
    const sessions = testSessions(app.server.infra.database);
    const admin = await sessions.loginAs('sys_admin', await sessions.newOrganization());
    cookie = `session_id=${admin.token}`;
  });
  afterAll(() => app?.close());

  async function send(op: Operation, withSession: boolean): Promise<string> {
    ip += 1;
    try {
      const res = await fetch(`${app.url}${op.path}`, {
        method: op.method,
        headers: {
          'Content-Type': 'application/json',
          'X-Forwarded-For': `198.18.${ip >> 8}.${ip & 255}`,
          ...(withSession ? { Cookie: cookie } : {}),
        },
        body: streamedBody(),
        duplex: 'half',
        signal: AbortSignal.timeout(30_000),
      } as RequestInit);
      await res.arrayBuffer();
      return String(res.status);
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      return `connection error: ${cause?.code ?? cause?.message ?? String(error)}`;
    }
  }

  it('lets the client read 413 PAYLOAD_TOO_LARGE on every route that takes a body, every time', { timeout: 300_000 }, async () => {
    expect(operations.length).toBeGreaterThan(20);
    const answers: Record<string, string[]> = {};
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const op of operations) (answers[`${op.method} ${op.path} (${op.operationId})`] ??= []).push(await send(op, true));
    }
    const expected = Object.fromEntries(Object.keys(answers).map((key) => [key, Array(ROUNDS).fill('413')]));
    expect(answers).toEqual(expected);
  });

  it('lets the client read the answer given before the body (401 without a session), never a broken connection', { timeout: 300_000 }, async () => {
    const answers: string[] = [];
    for (let round = 0; round < ROUNDS; round += 1) for (const op of operations) answers.push(await send(op, false));
    expect(answers.filter((answer) => answer.startsWith('connection error'))).toEqual([]);
  });
});
