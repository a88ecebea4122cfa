import { setTimeout as sleep } from 'node:timers/promises';
import type { LanguageModel, ModelEvent, ModelRequest } from '../../core/ai/language-model.port';
import { serviceUnavailable } from '../../core/shared/domain-error';

type Usage = { inputTokens: number; outputTokens: number };

/** How a call answers, unless the test drives it by hand through its FakeModelCall. */
export interface FakeModelScript {
  /** Default `['Hello', ', world']`. */
  deltas?: readonly string[];
  /** Wait before each delta. Default 0. */
  deltaDelayMs?: number;
  /** Reported at the end of a `completed` call; `null` reports none. Default: ~4 characters a token in, one token per delta out. */
  usage?: Usage | null;
  /**
   * `completed` (default): the deltas, the usage, the end. `fail`: the deltas, then `error`
   * (before the first event when there are no deltas). `hang`: the deltas, then the call stays
   * open until the test drives it (`push`, `finish`, `fail`) or the caller aborts.
   */
  ending?: 'completed' | 'fail' | 'hang';
  /** What `fail` throws. Default SERVICE_UNAVAILABLE, as the port promises. */
  error?: Error;
}

type Step = { kind: 'event'; event: ModelEvent } | { kind: 'end' } | { kind: 'error'; error: Error };

/** One call to the fake model: what it was asked, and the handle the test drives its stream with. */
export class FakeModelCall {
  private readonly steps: Step[] = [];
  private wake: (() => void) | undefined;
  private stopped = false;

  constructor(readonly request: ModelRequest) {}

  /** The caller aborted the call's signal. */
  get aborted(): boolean {
    return this.request.signal.aborted;
  }

  /** The caller stopped iterating, for whatever reason (end, failure, abort, break). */
  get released(): boolean {
    return this.stopped;
  }

  push(text: string): this {
    return this.step({ kind: 'event', event: { type: 'delta', text } });
  }

  /** Ends the stream, after one usage event unless `usage` is null. */
  finish(usage: Usage | null): void {
    if (usage) this.step({ kind: 'event', event: { type: 'usage', ...usage } });
    this.step({ kind: 'end' });
  }

  /** The caller sees the events pushed so far, then `error`. */
  fail(error: Error = serviceUnavailable('The fake language model failed')): void {
    this.step({ kind: 'error', error });
  }

  async *events(): AsyncGenerator<ModelEvent> {
    const { signal } = this.request;
    const onAbort = () => this.wake?.();
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        const step = this.steps.shift();
        if (!step) {
          await new Promise<void>((resolve) => (this.wake = resolve));
          continue;
        }
        if (step.kind === 'end') return;
        if (step.kind === 'error') throw step.error;
        yield step.event;
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.stopped = true;
    }
  }

  private step(step: Step): this {
    this.steps.push(step);
    this.wake?.();
    return this;
  }
}

/**
 * An in-memory LanguageModel for core unit tests, held to the port's contract
 * (test/contracts/language-model.contract.ts). Each call follows the next queued script, else
 * the default one; every call is recorded in `calls` with its request, and `nextCall()` hands
 * the test the next one to drive by hand (script it with `ending: 'hang'` first). Aborting the
 * signal ends iteration by returning, as the OpenAI adapter does.
 */
export class FakeLanguageModel implements LanguageModel {
  readonly calls: FakeModelCall[] = [];
  private readonly scripts: FakeModelScript[] = [];
  private readonly waiters: Array<(call: FakeModelCall) => void> = [];
  private claimed = 0;

  constructor(private readonly defaultScript: FakeModelScript = {}) {}

  get requests(): ModelRequest[] {
    return this.calls.map((call) => call.request);
  }

  script(next: FakeModelScript): this {
    this.scripts.push(next);
    return this;
  }

  /** The next call not yet handed out: one already started, else the next one to start. */
  nextCall(): Promise<FakeModelCall> {
    const call = this.calls[this.claimed];
    if (call) {
      this.claimed += 1;
      return Promise.resolve(call);
    }
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  // A generator, so that nothing reaches the "provider" until the caller starts iterating.
  async *stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
    const call = new FakeModelCall(request);
    this.calls.push(call);
    const waiter = this.waiters.shift();
    if (waiter) {
      this.claimed += 1;
      waiter(call);
    }
    void play(call, this.scripts.shift() ?? this.defaultScript);
    yield* call.events();
  }
}

async function play(call: FakeModelCall, script: FakeModelScript): Promise<void> {
  const deltas = script.deltas ?? ['Hello', ', world'];
  for (const delta of deltas) {
    if (script.deltaDelayMs) await sleep(script.deltaDelayMs, undefined, { signal: call.request.signal }).catch(() => undefined);
    if (call.aborted) return;
    call.push(delta);
  }
  const ending = script.ending ?? 'completed';
  if (ending === 'fail') return call.fail(script.error);
  if (ending === 'completed') {
    const { instructions, input } = call.request;
    call.finish(script.usage === undefined ? { inputTokens: Math.ceil((instructions.length + input.length) / 4), outputTokens: deltas.length } : script.usage);
  }
}
