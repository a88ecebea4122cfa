import { APIConnectionError, APIError, APIConnectionTimeoutError, AuthenticationError } from 'openai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OpenAiLanguageModel, type OpenAiLanguageModelOptions } from '../../adapters/openai/openai-language-model';
import type { ModelEvent } from '../../core/ai/language-model.port';
import type { DomainError } from '../../core/shared/domain-error';
import { startOpenAiFake, type FakeEnding, type OpenAiFake } from '../fakes/openai-fake';
import type { ScriptedCall } from './language-model.contract';
import { describeLanguageModelContract } from './language-model.contract';

const endings: Record<NonNullable<ScriptedCall['ending']>, FakeEnding> = {
  completed: 'completed',
  refused: 'http-500',
  failed: 'failed-event',
  cut: 'cut',
  hang: 'hang',
};

// The adapter with the real openai SDK, against OpenAI's Responses streaming protocol on 127.0.0.1.
describeLanguageModelContract('OpenAiLanguageModel against the OpenAI fake', async () => {
  const fake = await startOpenAiFake();
  return {
    model: new OpenAiLanguageModel({ apiKey: fake.apiKey, baseUrl: fake.url, timeoutMs: 5_000 }),
    script: ({ deltas, usage, ending = 'completed', deltaDelayMs }) =>
      fake.script({ deltas, usage: usage ?? null, ending: endings[ending], ...(deltaDelayMs === undefined ? {} : { deltaDelayMs }) }),
    received: () =>
      fake.requests.map((sent) => ({ model: sent.model, instructions: sent.instructions!, input: sent.input as string, maxOutputTokens: sent.max_output_tokens! })),
    whenProviderSawAbort: () => fake.whenAborted(1),
    teardown: () => fake.close(),
  };
});

describe('OpenAiLanguageModel, beyond the contract', () => {
  let fake: OpenAiFake;
  beforeEach(async () => {
    fake = await startOpenAiFake();
  });
  afterEach(() => fake.close());

  const modelAt = (options: Partial<OpenAiLanguageModelOptions> = {}) =>
    new OpenAiLanguageModel({ apiKey: fake.apiKey, baseUrl: fake.url, timeoutMs: 5_000, ...options });
  const request = (signal = new AbortController().signal) => ({ model: 'gpt-test-mini', instructions: 'Summarize.', input: 'A note.', maxOutputTokens: 64, signal });

  async function drain(stream: AsyncIterable<ModelEvent>) {
    const events: ModelEvent[] = [];
    try {
      for await (const event of stream) events.push(event);
    } catch (error) {
      return { events, error: error as DomainError & { cause?: unknown } };
    }
    return { events, error: undefined };
  }

  it('answers a wrong API key with SERVICE_UNAVAILABLE, the 401 kept as the cause for the logs', async () => {
    const { events, error } = await drain(modelAt({ apiKey: 'sk-wrong-key' }).stream(request()));

    expect(events).toEqual([]);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(error?.cause).toBeInstanceOf(AuthenticationError);
    expect(error?.cause).toMatchObject({ status: 401, code: 'invalid_api_key' });
    expect(fake.requests).toEqual([]);
  });

  it('calls the base URL it is given, path included, and nothing else', async () => {
    const compatible = await startOpenAiFake({ basePath: '/compat/openai/v1', apiKey: 'sk-compatible' });
    try {
      const { events } = await drain(new OpenAiLanguageModel({ apiKey: 'sk-compatible', baseUrl: compatible.url }).stream(request()));

      expect(events.at(-1)).toMatchObject({ type: 'usage' });
      expect(compatible.requests).toHaveLength(1);
      expect(compatible.protocolErrors).toEqual([]);
      expect(fake.requests).toEqual([]);
    } finally {
      await compatible.close();
    }
  });

  it('answers an unreachable base URL with SERVICE_UNAVAILABLE', async () => {
    const closed = await startOpenAiFake();
    await closed.close();

    const { error } = await drain(modelAt({ baseUrl: closed.url }).stream(request()));

    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(error?.cause).toBeInstanceOf(APIConnectionError);
  });

  it('still yields the usage when the model stopped at max_output_tokens (response.incomplete)', async () => {
    fake.script({ deltas: ['Cut', ' short'], ending: 'incomplete', usage: { inputTokens: 12, outputTokens: 64 } });

    const { events, error } = await drain(modelAt().stream(request()));

    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'delta', text: 'Cut' },
      { type: 'delta', text: ' short' },
      { type: 'usage', inputTokens: 12, outputTokens: 64 },
    ]);
  });

  it.each(['http-429', 'http-500'] as const)('does not retry after %s: one request, SERVICE_UNAVAILABLE', async (ending) => {
    fake.script({ ending });

    const { error } = await drain(modelAt().stream(request()));

    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', details: { retry_after: ending === 'http-429' ? 2 : 5 } });
    expect(error?.cause).toMatchObject({ status: ending === 'http-429' ? 429 : 500 });
    expect(fake.requests).toHaveLength(1);
  });

  it('answers an error event mid-stream with SERVICE_UNAVAILABLE after the deltas that arrived', async () => {
    fake.script({ deltas: ['Partial'], ending: 'error-event' });

    const { events, error } = await drain(modelAt().stream(request()));

    expect(events).toEqual([{ type: 'delta', text: 'Partial' }]);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(error?.cause).toBeInstanceOf(APIError);
    expect(error?.cause).toMatchObject({ code: 'server_error' });
  });

  it('treats a stream that ends without response.completed as cut: the deltas, then SERVICE_UNAVAILABLE', async () => {
    fake.script({ deltas: ['So far'], ending: 'ended-early' });

    const { events, error } = await drain(modelAt().stream(request()));

    expect(events).toEqual([{ type: 'delta', text: 'So far' }]);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  it('gives up with SERVICE_UNAVAILABLE when the provider does not start answering within timeoutMs', async () => {
    fake.script({ firstByteDelayMs: 3_000 });
    const started = performance.now();

    const { error } = await drain(modelAt({ timeoutMs: 200 }).stream(request()));

    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(error?.cause).toBeInstanceOf(APIConnectionTimeoutError);
    expect(performance.now() - started).toBeLessThan(1_500);
    await fake.whenAborted(1);
  });

  it('ends at once, and closes the connection, when the signal aborts before the provider answers', async () => {
    fake.script({ firstByteDelayMs: 3_000 });
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 100);

    const { events, error } = await drain(modelAt().stream(request(controller.signal)));

    expect({ events, error }).toEqual({ events: [], error: undefined });
    expect(performance.now() - started).toBeLessThan(1_000);
    await fake.whenAborted(1);
  });

  it('closes the connection when the caller stops reading early', async () => {
    fake.script({ deltas: 50, deltaDelayMs: 20 });

    for await (const event of modelAt().stream(request())) {
      expect(event).toMatchObject({ type: 'delta' });
      break;
    }

    await fake.whenAborted(1);
  });

  it('lets the provider call go when the caller returns while the provider has not answered yet', async () => {
    fake.script({ firstByteDelayMs: 300, deltas: 50, deltaDelayMs: 20 });
    const events = modelAt().stream(request())[Symbol.asyncIterator]();

    const first = events.next();
    await vi.waitFor(() => expect(fake.requests).toHaveLength(1));
    expect(await events.return!()).toEqual({ done: true, value: undefined });

    expect(await first).toEqual({ done: true, value: undefined });
    expect(await events.next()).toEqual({ done: true, value: undefined });
    await fake.whenAborted(1);
  });

  it('reads a finished stream to its end rather than leaving it: the SDK\'s request is not aborted', async () => {
    // The SDK aborts its own request when its stream is left before the end; the signal it
    // hands to fetch shows whether it did.
    const signals: AbortSignal[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = (input, init) => {
      if (init?.signal) signals.push(init.signal);
      return realFetch(input, init);
    };
    let model: OpenAiLanguageModel;
    try {
      model = modelAt(); // the SDK takes the global fetch when it is built
    } finally {
      globalThis.fetch = realFetch;
    }
    fake.script({ deltas: ['One'], usage: { inputTokens: 3, outputTokens: 1 } });

    const { events, error } = await drain(model.stream(request()));

    expect(error).toBeUndefined();
    expect(events).toEqual([
      { type: 'delta', text: 'One' },
      { type: 'usage', inputTokens: 3, outputTokens: 1 },
    ]);
    expect(signals).toHaveLength(1);
    expect(signals[0]!.aborted).toBe(false);
  });

  it('serves 50 concurrent streams of 200 deltas, each its own, as the benchmark will', async () => {
    fake.setDefaultScript({ deltas: 200, deltaDelayMs: 1 });
    const model = modelAt();

    const results = await Promise.all(Array.from({ length: 50 }, () => drain(model.stream(request()))));

    for (const { events, error } of results) {
      expect(error).toBeUndefined();
      expect(events).toHaveLength(201);
      expect(events.at(-1)).toMatchObject({ type: 'usage', outputTokens: 200 });
    }
    expect(fake.abortedCount).toBe(0);
  });
});
