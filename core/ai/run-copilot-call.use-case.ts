import type { UserCaller } from '../access/caller';
import { noteOwner } from '../notes/note-access';
import { quotaExceeded } from '../plans/quota';
import { DomainError, resourceNotFound, serviceUnavailable } from '../shared/domain-error';
import type { Reservation } from './ai-capacity.port';
import { usableReport } from './capacity-rules';
import type { AiDeps } from './ai-deps';
import { codePoints, copilotPrompt, promptCharacters, type CopilotTone } from './copilot-prompt';
import type { ModelEvent } from './language-model.port';
import { callCost, type ModelPrice } from './model-price.port';
import type { CopilotFeature, UsageRecord } from './usage-record';

export interface CopilotCallInput {
  feature: CopilotFeature;
  noteId: number;
  tone: CopilotTone;
  /** Aborted when the client goes away: the model call is stopped, and charged for what it used. */
  signal: AbortSignal;
}

/** A call that passed its checks and has its first byte. */
export interface CopilotAnswer {
  /** The text, delta by delta. Iterate it once; returning early ends the call. */
  chunks(): AsyncIterable<string>;
  /**
   * Ends the call if it is still running (the client went away, or the response was never sent)
   * and resolves once it is settled. Safe to call at any time, any number of times.
   */
  close(): Promise<UsageRecord | null>;
  /** Resolves once the call is settled, with its usage record (null if settling failed). */
  settled(): Promise<UsageRecord | null>;
}

/** What a copilot call needs of its context. */
export type CopilotDeps = ConstructorParameters<typeof RunCopilotCall>[0];

export const aiDisabled = () => new DomainError('FEATURE_DISABLED', 'The AI copilot is not available on this plan', { feature_key: 'enable_ai' });

/** No model on this server: the same code, but the message and `details` say the plan is not the cause. */
export const aiNotConfigured = (setting: string | undefined) =>
  new DomainError(
    'FEATURE_DISABLED',
    setting
      ? `The AI copilot is off on this server: no AI model is configured (${setting} is not set)`
      : 'The AI copilot is off on this server: no AI model is configured',
    { feature_key: 'enable_ai', reason: 'model_not_configured', ...(setting ? { missing_setting: setting } : {}) },
  );

/** What a call used as far as the copilot saw it: the provider's report, or the characters it received. */
interface Usage {
  characters: number;
  reported: { inputTokens: number; outputTokens: number } | null;
}

/**
 * One copilot call on one of the caller's notes, its whole life in `execute` and the answer it returns, top to bottom:
 *
 * 1. the checks, in order, and the reservation, in one step (CopilotAdmission): the note exists
 *    (RESOURCE_NOT_FOUND), a model is configured, then the plan enables AI (FEATURE_DISABLED, each
 *    with its own message), the
 *    capacity holds the call (QUOTA_EXCEEDED, with the plan's `token_limit`);
 * 2. the model call, bound to the output the reservation allows, stopped when the client leaves,
 *    when the call is closed, at the deadline (`settings.maxCallMs`), or when the provider keeps
 *    its stream open past `settings.providerEndGraceMs` after reporting its usage;
 * 3. its first byte: a provider that fails before it, or a call stopped before it, releases the
 *    reservation and answers SERVICE_UNAVAILABLE, charging nothing;
 * 4. the stream: a failure mid-way cuts the text short (the headers are sent);
 * 5. the settlement, exactly once however the call ended: the tokens the provider reported (each
 *    count clamped to what a report is believed, `usableReport`), or
 *    when it reported none the input estimate plus the characters received ÷ 4, at the model's
 *    price read with the checks.
 *
 * `execute` runs the call to its first byte, so a refusal is thrown before anything is streamed;
 * the answer it returns runs the rest.
 */
export class RunCopilotCall {
  constructor(private readonly deps: Pick<AiDeps, 'admission' | 'model' | 'capacity' | 'clock' | 'logger' | 'settings'>) {}

  async execute(caller: UserCaller, input: CopilotCallInput): Promise<CopilotAnswer> {
    const { admission, model, clock, settings, logger } = this.deps;

    // 1. The checks and the reservation.
    const now = clock.now();
    const admitted = await admission.admit({
      owner: noteOwner(caller),
      noteId: input.noteId,
      feature: input.feature,
      model: settings.model,
      aiConfigured: model !== null,
      promptCharacters: promptCharacters(input.feature, input.tone),
      createdAt: now,
      expiresAt: new Date(now.getTime() + settings.reservationTtlMs),
    });
    if (admitted.outcome === 'note_not_found') throw resourceNotFound('note', input.noteId);
    if (!model) throw aiNotConfigured(settings.modelSetting);
    if (admitted.outcome === 'ai_disabled') throw aiDisabled();
    if (admitted.outcome === 'quota_exceeded') throw quotaExceeded('token_limit', admitted.tokenLimit);
    const { note, reservation, price } = admitted;

    // 2. The model call and what stops it: the client leaving, `close()`, the deadline.
    const provider = new AbortController();
    const stop = () => provider.abort();
    let deadline = setTimeout(stop, settings.maxCallMs);
    if (input.signal.aborted) stop();
    else input.signal.addEventListener('abort', stop, { once: true });
    const prompt = copilotPrompt(input.feature, input.tone, note);
    const events = model.stream({ model: settings.model, ...prompt, maxOutputTokens: reservation.maxOutputTokens, signal: provider.signal })[Symbol.asyncIterator]();
    const used: Usage = { characters: 0, reported: null };
    let providerDone = false;
    let running = true;
    const reported = (usage: Extract<ModelEvent, { type: 'usage' }>) => {
      used.reported = { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens };
      // The usage is the provider's last event: its stream should end now.
      clearTimeout(deadline);
      deadline = setTimeout(stop, settings.providerEndGraceMs ?? PROVIDER_END_GRACE_MS);
    };
    // Nothing left to stop once the provider finished: aborting it anyway costs every call an
    // AbortError and a round of abort listeners.
    const end = async () => {
      clearTimeout(deadline);
      running = false;
      input.signal.removeEventListener('abort', stop);
      if (providerDone) return;
      provider.abort();
      await events.return?.().catch(() => undefined);
    };

    // 3. The first byte: it proves the provider is answering. Until then nothing is charged.
    let first: string | null = null;
    try {
      while (first === null) {
        const result = await events.next();
        if (result.done) {
          providerDone = true;
          break;
        }
        const event = result.value;
        if (event.type === 'usage') reported(event);
        else {
          used.characters += codePoints(event.text);
          if (event.text.length > 0) first = event.text;
        }
      }
    } catch (error) {
      await end();
      await this.giveBack(reservation.id, error);
      throw error instanceof DomainError && error.code === 'SERVICE_UNAVAILABLE' ? error : serviceUnavailable('The AI model is unavailable, try again shortly');
    }
    if (first === null && provider.signal.aborted) {
      // Stopped before its first byte (the client left, or the model took too long to start).
      await end();
      await this.giveBack(reservation.id, null);
      throw serviceUnavailable('The AI model did not answer in time');
    }

    // 4. The stream, then 5. the settlement, once however the call ends. Each delta is the
    // model's promise mapped once (`then`): no async function or generator between the model
    // and the reader, whose extra promise hops per delta, with 50 answers streaming at once,
    // delayed the next calls' admission (docs/benchmarks.md, "AI copilot: where the first-byte
    // time goes").
    let markSettled!: (record: UsageRecord | null) => void;
    const settled = new Promise<UsageRecord | null>((resolve) => (markSettled = resolve));
    let settling: Promise<unknown> | null = null;
    const finish = () =>
      (settling ??= (async () => {
        await end();
        markSettled(await this.settle(reservation, price, used));
      })());
    const finished = (): Promise<IteratorResult<string, void>> => finish().then(() => DONE);
    const onResult = (result: IteratorResult<ModelEvent>): IteratorResult<string, void> | Promise<IteratorResult<string, void>> => {
      if (result.done) {
        providerDone = true;
        return finished();
      }
      const event = result.value;
      if (event.type === 'usage') {
        reported(event);
        return pull();
      }
      used.characters += codePoints(event.text);
      return { done: false, value: event.text };
    };
    // A failure mid-way cuts the text short: the headers are sent.
    const onFailure = (error: unknown): Promise<IteratorResult<string, void>> => {
      if (!provider.signal.aborted) logger.warn({ err: error, reservation_id: reservation.id }, 'model stream failed mid-way: response cut short');
      return finished();
    };
    const pull = (): Promise<IteratorResult<string, void>> => events.next().then(onResult, onFailure);
    // The read in flight, which `close()` and `return()` let finish before ending the call.
    let reading: Promise<unknown> = Promise.resolve();
    let pending = first;
    const iterator: AsyncIterableIterator<string, void> = {
      next() {
        if (settling !== null) return finished();
        if (pending !== null) {
          const text = pending;
          pending = null;
          return Promise.resolve({ done: false, value: text });
        }
        const read = pull();
        reading = read;
        return read;
      },
      return() {
        pending = null;
        return reading.then(finished, finished);
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    return {
      chunks: () => iterator,
      close() {
        if (running) stop();
        return iterator.return!().then(() => settled);
      },
      settled: () => settled,
    };
  }

  /** A call that ends before its first byte: the reservation is released and nothing is logged. */
  private async giveBack(reservationId: number, error: unknown): Promise<void> {
    await this.deps.capacity.release(reservationId);
    this.deps.logger.warn({ err: error ?? undefined, reservation_id: reservationId }, 'model call ended before its first byte: reservation released');
  }

  /**
   * Replaces the reservation with what the call used. When settling fails, the reservation stays
   * held until it expires, then is released uncharged: the customer is never charged twice, and
   * never past the cap.
   */
  private async settle(reservation: Reservation, price: ModelPrice | null, used: Usage): Promise<UsageRecord | null> {
    const estimate = { inputTokens: reservation.inputEstimate, outputTokens: Math.ceil(used.characters / 4) };
    const tokens = used.reported ? usableReport(used.reported, reservation, estimate) : estimate;
    if (used.reported && (tokens.inputTokens !== used.reported.inputTokens || tokens.outputTokens !== used.reported.outputTokens)) {
      this.deps.logger.warn({ reservation_id: reservation.id, reported: used.reported, charged: tokens }, 'model reported usage outside its bounds: clamped');
    }
    try {
      if (!price) this.deps.logger.warn({ model: reservation.model }, 'no price on record for this model: its usage is logged without a cost');
      const costUsd = price ? callCost(price, tokens.inputTokens, tokens.outputTokens) : null;
      return await this.deps.capacity.settle(reservation, { ...tokens, costUsd, at: this.deps.clock.now() });
    } catch (error) {
      this.deps.logger.error({ err: error, reservation_id: reservation.id }, 'settling a copilot call failed: its reservation will expire');
      return null;
    }
  }
}

/** `AiSettings.providerEndGraceMs`'s default. */
const PROVIDER_END_GRACE_MS = 2_000;

const DONE: IteratorReturnResult<void> = { done: true, value: undefined };
