import OpenAI, { APIError, APIUserAbortError } from 'openai';
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

  async *stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
    const { signal } = request;
    let events: AsyncIterable<ResponseStreamEvent>;
    try {
      events = await this.client.responses.create(
        { model: request.model, instructions: request.instructions, input: request.input, max_output_tokens: request.maxOutputTokens, stream: true },
        { signal },
      );
    } catch (error) {
      if (signal.aborted || error instanceof APIUserAbortError) return;
      throw unavailable(error);
    }

    // After `response.completed` the stream is read on to its end (the provider closes it right
    // after) rather than left with `return`: leaving the SDK's stream early aborts its request,
    // which costs every call an AbortError and a round of abort listeners through the SDK and
    // undici. (A provider that keeps the stream open is stopped by the caller: RunCopilotCall's
    // `providerEndGraceMs`.)
    let finished = false;
    try {
      for await (const event of events) {
        if (finished) continue;
        switch (event.type) {
          case 'response.output_text.delta':
            if (event.delta) yield { type: 'delta', text: event.delta };
            break;
          // `incomplete` is the stop at max_output_tokens (or a content filter): text so far, usage reported.
          case 'response.completed':
          case 'response.incomplete':
            finished = true;
            if (event.response.usage) yield usageOf(event.response.usage);
            break;
          // (An `error` event never arrives here: the SDK throws it as an APIError.)
          case 'response.failed':
            throw unavailable(new Error(`response.failed: ${event.response.error?.code ?? 'no code'}: ${event.response.error?.message ?? ''}`));
        }
      }
    } catch (error) {
      // A connection that drops once the provider said it was done loses nothing.
      if (finished || signal.aborted) return;
      throw error instanceof DomainError ? error : unavailable(error);
    }
    // The SDK ends quietly both when the caller aborts and when the connection drops before the
    // provider said it was done; only the signal tells them apart.
    if (finished || signal.aborted) return;
    throw unavailable(new Error('The stream ended before the provider finished the response'));
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
