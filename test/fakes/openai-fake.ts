import { performance } from 'node:perf_hooks';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { header } from './fake-provider-server';
import { writeStream, type FakeResponseScript } from './openai-fake-stream';
import { errorBody } from './openai-fake-wire';

/**
 * OpenAI's Responses API on 127.0.0.1, streaming only: `POST <basePath>/responses` with
 * `stream: true` answers `text/event-stream` with the events OpenAI sends for a text answer
 * (https://platform.openai.com/docs/api-reference/responses-streaming): `response.created`,
 * `response.in_progress`, `response.output_item.added`, `response.content_part.added`, one
 * `response.output_text.delta` per scripted delta, the matching `.done` events, then
 * `response.completed` carrying usage. Each call follows a script: the next queued one, else the
 * default. `Authorization: Bearer <apiKey>` is checked (401 as OpenAI words it otherwise).
 */

export type { FakeEnding, FakeResponseScript } from './openai-fake-stream';

/** A request the fake accepted, as OpenAI received it. */
export interface FakeResponsesRequest {
  model: string;
  instructions: string | undefined;
  input: unknown;
  max_output_tokens: number | undefined;
  stream: boolean;
  body: Record<string, unknown>;
  /** `performance.now()` in this process when the request's body had been read and checked. */
  receivedAt: number;
}

export interface OpenAiFakeOptions {
  /** The key clients must send. Default `sk-test-openai-fake`. */
  apiKey?: string;
  /** Where the API lives on the server. Default `/v1`, as api.openai.com. */
  basePath?: string;
  /** The script of calls with none queued. */
  defaultScript?: FakeResponseScript;
}

export interface OpenAiFake {
  /** The base URL to give the SDK: `http://127.0.0.1:<port>/v1` (with `basePath`). */
  readonly url: string;
  readonly apiKey: string;
  /** Authenticated, well-formed requests, in arrival order. */
  readonly requests: FakeResponsesRequest[];
  /** Requests refused for protocol reasons (bad key, not JSON, not streaming …); empty when the client behaved. */
  readonly protocolErrors: string[];
  /** Queue a script for the next call; queued scripts are used in order, then the default again. */
  script(next: FakeResponseScript): void;
  setDefaultScript(script: FakeResponseScript): void;
  /** Streams the client closed before the fake finished them (aborted, or stopped reading). */
  readonly abortedCount: number;
  /** Resolves once `abortedCount` has reached `count` (default: one more than now). */
  whenAborted(count?: number): Promise<void>;
  /** Streams being written right now. */
  readonly activeStreams: number;
  close(): Promise<void>;
}

export async function startOpenAiFake(options: OpenAiFakeOptions = {}): Promise<OpenAiFake> {
  const apiKey = options.apiKey ?? 'sk-test-openai-fake';
  const basePath = (options.basePath ?? '/v1').replace(/\/$/, '');
  const requests: FakeResponsesRequest[] = [];
  const protocolErrors: string[] = [];
  const queue: FakeResponseScript[] = [];
  let defaultScript = options.defaultScript ?? {};
  let abortedCount = 0;
  let activeStreams = 0;
  const abortWaiters: Array<{ count: number; resolve: () => void }> = [];

  const refuse = (res: ServerResponse, status: number, problem: string, body = errorBody(problem, 'invalid_request_error', null)) => {
    protocolErrors.push(problem);
    reply(res, status, body);
  };

  const onAborted = () => {
    abortedCount += 1;
    for (const waiter of abortWaiters.filter((w) => abortedCount >= w.count)) {
      abortWaiters.splice(abortWaiters.indexOf(waiter), 1);
      waiter.resolve();
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (req.method !== 'POST' || path !== `${basePath}/responses`) return refuse(res, 404, `unexpected ${req.method} ${path}`);
    const key = header(req.headers, 'authorization')?.replace(/^Bearer /, '');
    if (key !== apiKey) {
      const shown = key ? `${key.slice(0, 3)}*****${key.slice(-4)}` : '';
      return refuse(res, 401, `Incorrect API key provided: ${shown}.`, errorBody(`Incorrect API key provided: ${shown}.`, 'invalid_request_error', 'invalid_api_key'));
    }
    const body = parseObject(raw);
    if (!header(req.headers, 'content-type')?.startsWith('application/json') || !body) return refuse(res, 400, 'body is not a JSON object');
    if (typeof body.model !== 'string') return refuse(res, 400, "Missing required parameter: 'model'.");
    if (body.stream !== true) return refuse(res, 400, 'this fake answers streaming requests only (stream: true)');
    requests.push({
      model: body.model,
      instructions: body.instructions as string | undefined,
      input: body.input,
      max_output_tokens: body.max_output_tokens as number | undefined,
      stream: true,
      body,
      receivedAt: performance.now(),
    });
    await answer(res, body, queue.shift() ?? defaultScript);
  };

  const answer = async (res: ServerResponse, body: Record<string, unknown>, script: FakeResponseScript) => {
    const gone = new AbortController();
    let finished = false;
    res.on('close', () => {
      gone.abort();
      if (!finished) onAborted();
    });
    if (script.firstByteDelayMs && !(await sleep(script.firstByteDelayMs, true, { signal: gone.signal }).catch(() => false))) return;
    const ending = script.ending ?? 'completed';
    if (ending === 'http-500' || ending === 'http-429') {
      finished = true;
      return ending === 'http-429'
        ? reply(res, 429, errorBody('Rate limit reached for requests', 'requests', 'rate_limit_exceeded'), { 'retry-after': '2' })
        : reply(res, 500, errorBody('The server had an error while processing your request. Sorry about that!', 'server_error', null));
    }

    activeStreams += 1;
    res.on('close', () => (activeStreams -= 1));
    await writeStream(res, body, script, gone.signal, () => (finished = true));
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      protocolErrors.push(`fake failed: ${String(error)}`);
      res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}${basePath}`,
    apiKey,
    requests,
    protocolErrors,
    script: (next) => void queue.push(next),
    setDefaultScript: (script) => void (defaultScript = script),
    get abortedCount() {
      return abortedCount;
    },
    get activeStreams() {
      return activeStreams;
    },
    whenAborted: (count = abortedCount + 1) =>
      abortedCount >= count ? Promise.resolve() : new Promise<void>((resolve) => abortWaiters.push({ count, resolve })),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

function parseObject(raw: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
