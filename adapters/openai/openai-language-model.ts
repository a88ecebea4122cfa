import OpenAI, { APIError, APIUserAbortError } from 'openai';
import type { Stream } from 'openai/core/streaming';
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

/**
 * The Responses API (`POST /v1/responses`, `stream: true`) through the OpenAI SDK. The SDK never
 * retries (`maxRetries: 0`): the user is waiting, and a retry after partial output would charge
 * the call twice. Every failure is SERVICE_UNAVAILABLE with the SDK's error as `cause`, bad keys
 * and refused requests included: the call cannot succeed either way, and the log says why.
 */
export class OpenAiLanguageModel implements LanguageModel {
  private readonly client: OpenAI;

  constructor(options: OpenAiLanguageModelOptions) {
    this.client = new OpenAI({
      apiKey: options.apiKey,
      // `null`, not undefined: the SDK would otherwise read OPENAI_BASE_URL from the environment.
      baseURL: options.baseUrl ?? null,
      organization: null,
      project: null,
      maxRetries: 0,
      timeout: options.timeoutMs ?? 30_000,
    });
  }

  /**
   * A hand-written iterator over the SDK's stream rather than an async generator: each delta is
   * the SDK's promise mapped once (`then`), where a generator's `for await` and `yield` cost
   * every delta two more promise hops, and with 50 answers streaming at once those hops are
   * what delays the next calls' admission (docs/benchmarks.md, "AI copilot: where the
   * first-byte time goes").
   */
  stream(request: ModelRequest): AsyncIterable<ModelEvent> {
    return { [Symbol.asyncIterator]: () => new ResponseEvents(this.client, request) };
  }
}

const DONE: IteratorResult<ModelEvent, undefined> = { done: true, value: undefined };

/** One call's events: the SDK's stream events mapped to the port's, as `LanguageModel` says. */
class ResponseEvents implements AsyncIterableIterator<ModelEvent, undefined> {
  /** The SDK's iterator, once the provider answered. */
  private source: AsyncIterator<ResponseStreamEvent> | null = null;
  /** The provider said it was done (`response.completed` or `incomplete`). */
  private finished = false;
  /** Iteration is over: ended, thrown, or returned by the caller. */
  private over = false;
  private readonly onResult = (result: IteratorResult<ResponseStreamEvent>): IteratorResult<ModelEvent, undefined> | Promise<IteratorResult<ModelEvent, undefined>> => this.map(result);
  private readonly onError = (error: unknown): IteratorResult<ModelEvent, undefined> => this.fail(error);

  constructor(
    private readonly client: OpenAI,
    private readonly request: ModelRequest,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<ModelEvent, undefined>> {
    if (this.over) return Promise.resolve(DONE);
    if (this.source === null) return this.open();
    return this.source.next().then(this.onResult, this.onError);
  }

  return(): Promise<IteratorResult<ModelEvent, undefined>> {
    if (this.over) return Promise.resolve(DONE);
    this.over = true;
    // Leaving the SDK's stream before its end aborts its request: the connection is let go.
    const source = this.source;
    return source?.return ? source.return().then(() => DONE, () => DONE) : Promise.resolve(DONE);
  }

  private async open(): Promise<IteratorResult<ModelEvent, undefined>> {
    const { request } = this;
    let events: Stream<ResponseStreamEvent>;
    try {
      events = await this.client.responses.create(
        { model: request.model, instructions: request.instructions, input: request.input, max_output_tokens: request.maxOutputTokens, stream: true },
        { signal: request.signal },
      );
    } catch (error) {
      this.over = true;
      if (request.signal.aborted || error instanceof APIUserAbortError) return DONE;
      throw unavailable(error);
    }
    // Returned while the provider was being reached: its request is aborted at once (returning
    // the SDK's iterator before reading it would not, and would leave the connection open).
    if (this.over) {
      events.controller.abort();
      return DONE;
    }
    this.source = events[Symbol.asyncIterator]();
    return this.next();
  }

  private map(result: IteratorResult<ResponseStreamEvent>): IteratorResult<ModelEvent, undefined> | Promise<IteratorResult<ModelEvent, undefined>> {
    if (this.over) return DONE;
    if (result.done) {
      this.over = true;
      // The SDK ends quietly both when the caller aborts and when the connection drops before
      // the provider said it was done; only the signal tells them apart.
      if (this.finished || this.request.signal.aborted) return DONE;
      throw unavailable(new Error('The stream ended before the provider finished the response'));
    }
    // After `response.completed` the stream is read on to its end (the provider closes it right
    // after) rather than left with `return`: leaving the SDK's stream early aborts its request,
    // which costs every call an AbortError and a round of abort listeners through the SDK and
    // undici. (A provider that keeps the stream open is stopped by the caller: RunCopilotCall's
    // `providerEndGraceMs`.)
    if (this.finished) return this.next();
    const event = result.value;
    switch (event.type) {
      case 'response.output_text.delta':
        if (event.delta) return { done: false, value: { type: 'delta', text: event.delta } };
        break;
      // `incomplete` is the stop at max_output_tokens (or a content filter): text so far, usage reported.
      case 'response.completed':
      case 'response.incomplete':
        this.finished = true;
        if (event.response.usage) return { done: false, value: usageOf(event.response.usage) };
        break;
      // (An `error` event never arrives here: the SDK throws it as an APIError.)
      case 'response.failed':
        void this.source?.return?.().catch(() => undefined);
        return this.fail(unavailable(new Error(`response.failed: ${event.response.error?.code ?? 'no code'}: ${event.response.error?.message ?? ''}`)));
    }
    return this.next();
  }

  /** A failure of the SDK's stream, or the provider's: thrown, unless nothing is lost by it. */
  private fail(error: unknown): IteratorResult<ModelEvent, undefined> {
    this.over = true;
    // A connection that drops once the provider said it was done loses nothing.
    if (this.finished || this.request.signal.aborted) return DONE;
    throw error instanceof DomainError ? error : unavailable(error);
  }
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
