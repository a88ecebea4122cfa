import { createServer } from 'node:http';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The machinery shared by the email provider fakes: a node:http server on 127.0.0.1 that checks
 * each request against a provider's wire protocol, records accepted emails, and can be told to
 * fail the next send requests. The per-provider files only describe their protocol.
 */

/** How a send request is answered. Without instructions the fake answers `success`. */
export type ReplyMode =
  | 'success'
  | 'permanent' // a provider-shaped 4xx that retrying cannot fix
  | 'rate-limited' // 429
  | 'server-error' // 5xx
  | 'slow' // answer normally, but only after `slowMs`
  | 'drop'; // destroy the socket without answering

/** An email as the provider received it, in provider-neutral terms. */
export interface ReceivedEmail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Custom MIME headers the request asked the provider to add to the email. */
  headers: Record<string, string>;
  /** Whatever this provider treats as the idempotency / de-duplication token of the request. */
  idempotencyToken: string | undefined;
  /** The request body as parsed JSON, for provider-specific assertions. */
  body: unknown;
}

/** What every provider fake offers the contract suite. */
export interface EmailProviderFake {
  /** Base URL (`http://127.0.0.1:<port>`) to point the SDK at. */
  readonly url: string;
  readonly received: ReceivedEmail[];
  /** Send requests that reached the fake, failed or not: shows whether the SDK retried on its own. */
  readonly sendAttempts: number;
  /** Every wire-protocol violation seen (bad auth, missing field ...); empty when the SDK behaved. */
  readonly protocolErrors: string[];
  /**
   * Queue `mode` for the next `count` send requests; queued modes are used in order, then the
   * fake succeeds again. Queue `success` between failures to script a sequence.
   */
  failNext(mode: ReplyMode, count?: number): void;
  close(): Promise<void>;
}

export interface FakeRequest {
  method: string;
  /** Path and query exactly as sent. */
  rawUrl: string;
  url: URL;
  headers: IncomingHttpHeaders;
  rawBody: string;
}

export interface FakeResponse {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

export type ProviderFailure = Exclude<ReplyMode, 'success' | 'slow' | 'drop'>;

/** One provider's wire protocol, as seen by the shared server. */
export interface ProviderProtocol {
  /** Is this the request that sends an email (the one failure modes apply to)? */
  isSendRequest(request: FakeRequest): boolean;
  /** Protocol violations of any request: authentication, content type, required fields. */
  check(request: FakeRequest): string[];
  /** The provider's answer to a request that failed `check`. */
  rejectViolation(problems: string[]): FakeResponse;
  /** Parse an accepted send request. Only called after `check` passed. */
  parseEmail(request: FakeRequest): ReceivedEmail;
  accepted(request: FakeRequest, email: ReceivedEmail, baseUrl: string): FakeResponse;
  failure(kind: ProviderFailure): FakeResponse;
  /** Any other endpoint (e.g. Azure's operation status); undefined answers 404. */
  otherRequest?(request: FakeRequest, baseUrl: string): FakeResponse | undefined;
}

export interface FakeServerOptions {
  /** Delay of the `slow` mode; capped at MAX_SLOW_MS so a test can never hang on it. */
  slowMs?: number;
}

const MAX_SLOW_MS = 10_000;
const MAX_BODY_BYTES = 1_000_000;

export async function startFakeProviderServer(
  protocol: ProviderProtocol,
  options: FakeServerOptions = {},
): Promise<EmailProviderFake> {
  const slowMs = Math.min(Math.max(options.slowMs ?? 2_000, 0), MAX_SLOW_MS);
  const received: ReceivedEmail[] = [];
  const protocolErrors: string[] = [];
  const replies: ReplyMode[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = '';
  let sendAttempts = 0;

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        resolve();
      }, ms);
      timers.add(timer);
    });

  const answer = (res: ServerResponse, response: FakeResponse) => {
    if (res.destroyed || res.headersSent || !res.socket || res.socket.destroyed) return;
    const body = response.body === undefined ? '' : JSON.stringify(response.body);
    res.writeHead(response.status, {
      ...(body ? { 'content-type': 'application/json; charset=utf-8' } : {}),
      ...response.headers,
    });
    res.end(body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const rawBody = await readBody(req);
    const request: FakeRequest = {
      method: req.method ?? 'GET',
      rawUrl: req.url ?? '/',
      url: new URL(req.url ?? '/', baseUrl),
      headers: req.headers,
      rawBody,
    };
    const problems = protocol.check(request);
    if (problems.length > 0) {
      protocolErrors.push(...problems.map((p) => `${request.method} ${request.url.pathname}: ${p}`));
      return answer(res, protocol.rejectViolation(problems));
    }
    if (!protocol.isSendRequest(request)) {
      return answer(res, protocol.otherRequest?.(request, baseUrl) ?? { status: 404, body: { message: 'Not found' } });
    }
    sendAttempts += 1;
    const mode = replies.shift() ?? 'success';
    if (mode === 'drop') return void req.socket.destroy();
    if (mode === 'slow') await wait(slowMs);
    if (mode === 'permanent' || mode === 'rate-limited' || mode === 'server-error') {
      return answer(res, protocol.failure(mode));
    }
    // A slow request whose client gave up is still accepted: the provider sent the email but the
    // answer was lost, which is exactly the case idempotency tokens exist for.
    const email = protocol.parseEmail(request);
    received.push(email);
    answer(res, protocol.accepted(request, email, baseUrl));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      protocolErrors.push(`fake crashed: ${String(error)}`);
      answer(res, { status: 500, body: { message: 'fake crashed' } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    received,
    protocolErrors,
    get sendAttempts() {
      return sendAttempts;
    },
    failNext(mode, count = 1) {
      for (let i = 0; i < count; i += 1) replies.push(mode);
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** JSON.parse that reports failure as a value: a malformed body is a protocol error, not a crash. */
export function parseJson(raw: string): { ok: true; value: Record<string, unknown> } | { ok: false } {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? { ok: true, value: value as Record<string, unknown> }
      : { ok: false };
  } catch {
    return { ok: false };
  }
}

export const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(',') : value;
};

export const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value !== '';
