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
