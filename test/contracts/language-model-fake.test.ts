import { describe, expect, it } from 'vitest';
import { FakeLanguageModel } from '../fakes/fake-language-model';
import { describeLanguageModelContract } from './language-model.contract';

// The fake the core tests run on must behave as the OpenAI adapter does against a provider.
describeLanguageModelContract('FakeLanguageModel', async () => {
  const model = new FakeLanguageModel();
  return {
    model,
    script: ({ deltas, usage, ending = 'completed', deltaDelayMs }) =>
      void model.script({
        deltas: ending === 'refused' ? [] : deltas,
        usage: usage ?? null,
        // At the port, a failure event and a cut stream look alike: what arrived, then the error.
        ending: ending === 'completed' || ending === 'hang' ? ending : 'fail',
        ...(deltaDelayMs === undefined ? {} : { deltaDelayMs }),
      }),
    received: () => model.requests.map(({ signal: _, ...sent }) => sent),
    whenProviderSawAbort: async () => {
      const call = model.calls.at(-1)!;
      if (call.aborted) return;
      await new Promise((resolve) => call.request.signal.addEventListener('abort', resolve, { once: true }));
    },
    teardown: async () => undefined,
  };
});

// Beyond the contract: the hand-driven calls core tests use to interleave their own steps.
describe('FakeLanguageModel driven by hand', () => {
  const request = (signal = new AbortController().signal) => ({ model: 'm', instructions: 'i', input: 'x', maxOutputTokens: 8, signal });

  it('hands each call to the test, which pushes, fails or finishes it', async () => {
    const model = new FakeLanguageModel().script({ deltas: [], ending: 'hang' });
    const iterator = model.stream(request())[Symbol.asyncIterator]();
    const first = iterator.next();

    const call = await model.nextCall();
    call.push('Hi');
    await expect(first).resolves.toEqual({ done: false, value: { type: 'delta', text: 'Hi' } });
    call.finish({ inputTokens: 3, outputTokens: 1 });

    await expect(iterator.next()).resolves.toEqual({ done: false, value: { type: 'usage', inputTokens: 3, outputTokens: 1 } });
    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
    expect(call.released).toBe(true);
    expect(model.requests).toEqual([call.request]);
  });

  it('tells the test the caller aborted', async () => {
    const model = new FakeLanguageModel().script({ deltas: ['a'], ending: 'hang' });
    const controller = new AbortController();
    const iterator = model.stream(request(controller.signal))[Symbol.asyncIterator]();
    await iterator.next();
    const call = await model.nextCall();

    expect(call.aborted).toBe(false);
    controller.abort();

    await expect(iterator.next()).resolves.toEqual({ done: true, value: undefined });
    expect(call.aborted).toBe(true);
  });
});
