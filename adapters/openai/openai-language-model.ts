import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { ResponseStreamEvent, ResponseUsage } from 'openai/resources/responses/responses';
import type { LanguageModel, ModelEvent, ModelRequest } from '../../core/ai/language-model.port';
import { DomainError, serviceUnavailable } from '../../core/shared/domain-error';

export interface OpenAiLanguageModelOptions {
  /** APP_OPENAI_API_KEY. */
  apiKey: string;
  /** APP_OPENAI_BASE_URL: an OpenAI-compatible server, including its `/v1`. Default: api.openai.com. */
  baseUrl?: string | undefined;
  /**
   * How long to wait for the provider to start answering (the response headers). Default 30 s.
   * The stream after that is bounded by the caller's signal: a long answer is not a slow one.
   */
  timeoutMs?: number;
}

const DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * The Responses API (`POST /v1/responses`, `stream: true`), spoken directly over node:http(s) with
 * keep-alive connections and read as server-sent events here. Not through the openai SDK: its
 * request set-up (headers, user agent, signal plumbing, fetch and web streams) and its SSE
 * reader cost about 0.7 ms of CPU per call more than this, and that CPU sits on every call's path
 * to its first byte (with 50 calls at once, the last waits for all the others'). The SDK's error
 * classes are kept as the causes, so the logs read as before. Never retried: the user is waiting,
 * and a retry after partial output would charge the call twice. Every failure is
 * SERVICE_UNAVAILABLE with the cause attached, bad keys and refused requests included: the call
 * cannot succeed either way, and the log says why.
 */
export class OpenAiLanguageModel implements LanguageModel {
  private readonly url: URL;
  private readonly agent: HttpAgent;
  private readonly send: typeof httpRequest;
  private readonly authorization: string;
  private readonly timeoutMs: number;

  constructor(options: OpenAiLanguageModelOptions) {
    this.url = new URL(`${(options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')}/responses`);
    const https = this.url.protocol === 'https:';
    this.agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.send = https ? httpsRequest : httpRequest;
    this.authorization = `Bearer ${options.apiKey}`;
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  async *stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
    const { signal } = request;
    if (signal.aborted) return;
    const body = JSON.stringify({
      model: request.model,
      instructions: request.instructions,
      input: request.input,
      max_output_tokens: request.maxOutputTokens,
      stream: true,
    });
    let res: IncomingMessage;
    try {
      res = await this.post(body, signal);
    } catch (error) {
      if (signal.aborted) return;
      throw unavailable(error);
    }
    const status = res.statusCode ?? 0;
    if (status < 200 || status >= 300) {
      const text = await readText(res).catch(() => '');
      if (signal.aborted) return;
      const json = safeJson(text);
      throw unavailable(APIError.generate(status, json as object | undefined, json === undefined ? text : undefined, headersOf(res)));
    }

    const abort = () => res.destroy();
    signal.addEventListener('abort', abort, { once: true });
    try {
      for await (const event of serverSentEvents(res)) {
        switch (event.type) {
          case 'response.output_text.delta':
            if (event.delta) yield { type: 'delta', text: event.delta };
            break;
          // `incomplete` is the stop at max_output_tokens (or a content filter): text so far, usage reported.
          case 'response.completed':
          case 'response.incomplete':
            if (event.response.usage) yield usageOf(event.response.usage);
            return;
          case 'response.failed':
            throw unavailable(new Error(`response.failed: ${event.response.error?.code ?? 'no code'}: ${event.response.error?.message ?? ''}`));
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      throw error instanceof DomainError ? error : unavailable(error);
    } finally {
      signal.removeEventListener('abort', abort);
      // A stream read to its end leaves the connection to the next call; one left early (the
      // caller stopped, or it failed) is closed, so the provider stops writing.
      if (res.complete) res.resume();
      else res.destroy();
    }
    // A connection that drops before the provider said it was done ends the stream quietly;
    // only the signal tells that apart from the caller's abort.
    if (signal.aborted) return;
    throw unavailable(new Error('The stream ended before the provider finished the response'));
  }

  /** The response once its headers are in; fails on a connection error or after `timeoutMs` without them. */
  private post(body: string, signal: AbortSignal): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const req = this.send(this.url, {
        method: 'POST',
        agent: this.agent,
        headers: {
          authorization: this.authorization,
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      });
      const timer = setTimeout(() => req.destroy(new APIConnectionTimeoutError()), this.timeoutMs);
      const abort = () => req.destroy();
      signal.addEventListener('abort', abort, { once: true });
      const settle = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', abort);
      };
      req.once('response', (res) => {
        settle();
        resolve(res);
      });
      req.once('error', (error) => {
        settle();
        reject(error instanceof APIError ? error : new APIConnectionError({ message: undefined, cause: error }));
      });
      req.end(body);
    });
  }
}

/**
 * The JSON events of an SSE body: lines up to a blank one make an event; its `data:` lines,
 * joined, are the JSON. An `error` event, or data carrying `error`, is thrown as an APIError, as
 * the SDK does; `[DONE]` ends the stream.
 */
async function* serverSentEvents(res: IncomingMessage): AsyncGenerator<ResponseStreamEvent> {
  res.setEncoding('utf8');
  let buffer = '';
  let name = '';
  let data: string[] = [];
  // Not destroyed when the reader stops at the terminal event: the caller decides whether the connection is kept.
  for await (const chunk of res.iterator({ destroyOnReturn: false }) as AsyncIterable<string>) {
    buffer += chunk;
    let start = 0;
    for (let end = buffer.indexOf('\n', start); end !== -1; end = buffer.indexOf('\n', start)) {
      const line = buffer.charCodeAt(end - 1) === 13 ? buffer.slice(start, end - 1) : buffer.slice(start, end);
      start = end + 1;
      if (line === '') {
        if (data.length > 0) {
          const text = data.join('\n');
          if (text === '[DONE]') return;
          const parsed = safeJson(text) as (ResponseStreamEvent & { error?: unknown }) | undefined;
          if (parsed === undefined) throw new SyntaxError('Error reading response: malformed server-sent event JSON.');
          if (name === 'error') throw new APIError(undefined, (parsed as { error?: unknown }).error ?? parsed, undefined, headersOf(res));
          if (parsed && parsed.error) throw new APIError(undefined, parsed.error, undefined, headersOf(res));
          yield parsed;
        }
        name = '';
        data = [];
      } else if (line.startsWith('data:')) data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
      else if (line.startsWith('event:')) name = line.charCodeAt(6) === 32 ? line.slice(7) : line.slice(6);
      // Comments (`:`), `id:` and `retry:` carry nothing the Responses API needs.
    }
    buffer = buffer.slice(start);
  }
}

async function readText(res: IncomingMessage): Promise<string> {
  res.setEncoding('utf8');
  let text = '';
  for await (const chunk of res as AsyncIterable<string>) text += chunk;
  return text;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(res.headers)) {
    if (Array.isArray(value)) for (const one of value) headers.append(key, one);
    else if (value !== undefined) headers.set(key, value);
  }
  return headers;
}

const usageOf = (usage: ResponseUsage): ModelEvent => ({ type: 'usage', inputTokens: usage.input_tokens, outputTokens: usage.output_tokens });

function unavailable(error: unknown): DomainError {
  const throttled = error instanceof APIError && error.status === 429;
  const domainError = serviceUnavailable('The language model is unavailable, try again shortly', throttled ? retryAfterSeconds(error) : 5);
  domainError.cause = error;
  return domainError;
}

/** The provider's own hint when it throttles; OpenAI sends `retry-after` in seconds on some 429s. */
function retryAfterSeconds(error: APIError): number {
  const seconds = Number(error.headers?.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 5;
}
