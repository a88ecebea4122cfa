import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LanguageModel, ModelEvent, ModelRequest } from '../../core/ai/language-model.port';

/** How the provider answers the next call, in provider-neutral terms. */
export interface ScriptedCall {
  deltas: string[];
  /** Reported at the end of a `completed` call; `null` or absent: none. */
  usage?: { inputTokens: number; outputTokens: number } | null;
  /**
   * `completed` (default); `refused`: fails before sending anything; `failed`: the provider
   * reports a failure after the deltas; `cut`: the stream stops after the deltas without the
   * provider saying it is done; `hang`: stays open after the deltas.
   */
  ending?: 'completed' | 'refused' | 'failed' | 'cut' | 'hang';
  /** Wait before each delta. */
  deltaDelayMs?: number;
}

export interface LanguageModelHarness {
  model: LanguageModel;
  script(next: ScriptedCall): void;
  /** What the provider received, call by call, in the port's terms. */
  received(): Array<Omit<ModelRequest, 'signal'>>;
  /** Resolves once the provider saw a call end early: its signal aborted, its connection closed. */
  whenProviderSawAbort(): Promise<void>;
  teardown(): Promise<void>;
}

const request = (signal = new AbortController().signal): ModelRequest => ({
  model: 'gpt-test-mini',
  instructions: 'Summarize the note in one sentence.',
  input: 'Met with ACME on Tuesday: they want the rollout moved to March.',
  maxOutputTokens: 256,
  signal,
});

/** Everything the stream yields, and what it threw at the end, if anything. */
async function drain(stream: AsyncIterable<ModelEvent>): Promise<{ events: ModelEvent[]; error: unknown }> {
  const events: ModelEvent[] = [];
  try {
    for await (const event of stream) events.push(event);
    return { events, error: undefined };
  } catch (error) {
    return { events, error };
  }
}

/** Fails the test rather than letting it hang until the suite's timeout. */
const within = <T>(ms: number, what: string, promise: Promise<T>): Promise<T> =>
  Promise.race([promise, sleep(ms).then(() => Promise.reject(new Error(`${what} took more than ${ms} ms`)))]);

const delta = (text: string): ModelEvent => ({ type: 'delta', text });
const unavailable = { name: 'DomainError', code: 'SERVICE_UNAVAILABLE' };

export function describeLanguageModelContract(name: string, setup: () => Promise<LanguageModelHarness>): void {
  describe(`LanguageModel contract: ${name}`, () => {
    let h: LanguageModelHarness;

    beforeEach(async () => {
      h = await setup();
    });

    afterEach(async () => {
      await h.teardown();
    });

    it('yields the deltas in order, then one usage event, last', async () => {
      h.script({ deltas: ['The rollout', ' moves', ' to March', '.'], usage: { inputTokens: 41, outputTokens: 7 } });

      const { events, error } = await drain(h.model.stream(request()));

      expect(error).toBeUndefined();
      expect(events).toEqual([delta('The rollout'), delta(' moves'), delta(' to March'), delta('.'), { type: 'usage', inputTokens: 41, outputTokens: 7 }]);
    });

    it('ends without a usage event when the provider reports none', async () => {
      h.script({ deltas: ['Done.'], usage: null });

      await expect(drain(h.model.stream(request()))).resolves.toEqual({ events: [delta('Done.')], error: undefined });
    });

    it('sends the model, instructions, input and output limit to the provider', async () => {
      h.script({ deltas: ['ok'] });

      await drain(h.model.stream(request()));

      const { signal: _, ...sent } = request();
      expect(h.received()).toEqual([sent]);
    });

    it('throws SERVICE_UNAVAILABLE, having yielded nothing, when the provider fails before the first event', async () => {
      h.script({ deltas: [], ending: 'refused' });

      const { events, error } = await drain(h.model.stream(request()));

      expect(events).toEqual([]);
      expect(error).toMatchObject(unavailable);
    });

    it('yields the deltas that arrived, then throws SERVICE_UNAVAILABLE, when the provider fails mid-stream', async () => {
      h.script({ deltas: ['Half', ' an answer'], ending: 'failed', usage: { inputTokens: 10, outputTokens: 2 } });

      const { events, error } = await drain(h.model.stream(request()));

      expect(events).toEqual([delta('Half'), delta(' an answer')]);
      expect(error).toMatchObject(unavailable);
    });

    it('yields the deltas that arrived, then throws SERVICE_UNAVAILABLE, without usage, when the stream is cut', async () => {
      h.script({ deltas: ['One', ' two', ' three'], ending: 'cut', usage: { inputTokens: 10, outputTokens: 3 } });

      const { events, error } = await drain(h.model.stream(request()));

      expect(events).toEqual([delta('One'), delta(' two'), delta(' three')]);
      expect(error).toMatchObject(unavailable);
    });

    it('ends iteration promptly when the signal aborts during a slow stream, and the provider call ends', async () => {
      const words = Array.from({ length: 100 }, (_, i) => `w${i} `);
      h.script({ deltas: words, deltaDelayMs: 20, usage: { inputTokens: 10, outputTokens: 100 } });
      const controller = new AbortController();
      const iterator = h.model.stream(request(controller.signal))[Symbol.asyncIterator]();

      await expect(iterator.next()).resolves.toEqual({ done: false, value: delta('w0 ') });
      await expect(iterator.next()).resolves.toEqual({ done: false, value: delta('w1 ') });
      controller.abort();
      // Returning or throwing are both the port's "ends"; what matters is that it does, at once.
      const rest = await within(1_000, 'ending after abort', drain({ [Symbol.asyncIterator]: () => iterator }));

      expect(rest.events.filter((event) => event.type === 'usage')).toEqual([]);
      expect(rest.events.length).toBeLessThan(5);
      await within(2_000, 'the provider seeing the abort', h.whenProviderSawAbort());
    });

    it('ends iteration when the signal aborts while the provider sends nothing', async () => {
      h.script({ deltas: ['Thinking'], ending: 'hang' });
      const controller = new AbortController();
      const iterator = h.model.stream(request(controller.signal))[Symbol.asyncIterator]();
      await expect(iterator.next()).resolves.toEqual({ done: false, value: delta('Thinking') });

      const waiting = iterator.next().then(
        (result) => result,
        () => ({ done: true, value: undefined }),
      );
      await sleep(50);
      controller.abort();

      await expect(within(1_000, 'ending after abort', waiting)).resolves.toMatchObject({ done: true });
      await within(2_000, 'the provider seeing the abort', h.whenProviderSawAbort());
    });

    it('reaches no provider output when the signal is already aborted', async () => {
      h.script({ deltas: ['never'], usage: { inputTokens: 1, outputTokens: 1 } });
      const controller = new AbortController();
      controller.abort();

      const { events } = await within(1_000, 'an aborted call', drain(h.model.stream(request(controller.signal))));

      expect(events).toEqual([]);
    });
  });
}
