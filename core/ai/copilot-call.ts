import type { Logger } from '../shared/logger.port';
import type { AiCapacity, Reservation } from './ai-capacity.port';
import type { ModelEvent } from './language-model.port';
import { callCost, type ModelPriceRepository } from './model-price.port';
import type { UsageRecord } from './usage-record';
import { usableReport } from './capacity-rules';

export interface CopilotCallDeps {
  capacity: Pick<AiCapacity, 'settle'>;
  prices: ModelPriceRepository;
  logger: Logger;
  now(): Date;
}

/**
 * One model call in flight, from its first delta to its settlement. The text reaches the client
 * through `chunks()`; however the call ends (finished, cut short by the provider, abandoned by the
 * client, aborted), it is settled exactly once: the tokens the provider reported, or when it
 * reported none the reservation's input estimate plus the characters received ÷ 4, replace the
 * reservation.
 */
export class CopilotCall {
  private receivedCharacters = 0;
  private reported: { inputTokens: number; outputTokens: number } | null = null;
  private started = false;
  /** The provider finished its answer: nothing is left to stop. */
  private providerDone = false;
  private settlement: Promise<UsageRecord | null> | null = null;
  private markSettled!: (record: UsageRecord | null) => void;
  private readonly done = new Promise<UsageRecord | null>((resolve) => {
    this.markSettled = resolve;
  });

  constructor(
    private readonly reservation: Reservation,
    /** Deltas read before the call was handed out (the first byte proves the provider is answering). */
    private readonly buffered: string[],
    private readonly events: AsyncIterator<ModelEvent>,
    private readonly controller: AbortController,
    private readonly deps: CopilotCallDeps,
  ) {}

  /** Notes an event read before the call was handed out. */
  observe(event: ModelEvent): void {
    if (event.type === 'delta') this.receivedCharacters += [...event.text].length;
    else this.reported = { inputTokens: event.inputTokens, outputTokens: event.outputTokens };
  }

  /** The text, delta by delta. Iterate it once; returning early (the client left) ends the call. */
  async *chunks(): AsyncGenerator<string> {
    this.started = true;
    try {
      for (const text of this.buffered.splice(0)) yield text;
      for (;;) {
        const next = await this.events.next();
        if (next.done) {
          this.providerDone = true;
          break;
        }
        this.observe(next.value);
        if (next.value.type === 'delta') yield next.value.text;
      }
    } catch (error) {
      // The headers and part of the text are sent: the response can only be cut short.
      if (!this.controller.signal.aborted) this.deps.logger.warn({ err: error, reservation_id: this.reservation.id }, 'model stream failed mid-way: response cut short');
    } finally {
      this.stopProvider();
      await this.settle();
    }
  }

  /**
   * Ends the call if it is still running (the client went away, or the response was never
   * sent) and settles it. Safe to call at any time, any number of times.
   */
  async close(): Promise<UsageRecord | null> {
    this.stopProvider();
    if (!this.started) {
      // chunks() never ran, so its cleanup will not: let the provider call go, then settle.
      await this.events.return?.().catch(() => undefined);
      return this.settle();
    }
    return this.settled();
  }

  /**
   * Aborts the provider call unless it already finished. A finished call has nothing to stop,
   * and aborting it anyway costs every call an AbortError and a round of abort listeners.
   */
  private stopProvider(): void {
    if (!this.providerDone) this.controller.abort();
  }

  /** Resolves once the call is settled, with its usage record (null if settling failed). */
  settled(): Promise<UsageRecord | null> {
    return this.done;
  }

  private settle(): Promise<UsageRecord | null> {
    this.settlement ??= this.charge().then((record) => {
      this.markSettled(record);
      return record;
    });
    return this.settlement;
  }

  private async charge(): Promise<UsageRecord | null> {
    const { reservation } = this;
    const estimate = { inputTokens: reservation.inputEstimate, outputTokens: Math.ceil(this.receivedCharacters / 4) };
    const used = this.reported ? usableReport(this.reported, reservation, estimate) : estimate;
    if (this.reported && (used.inputTokens !== this.reported.inputTokens || used.outputTokens !== this.reported.outputTokens)) {
      this.deps.logger.warn({ reservation_id: reservation.id, reported: this.reported, charged: used }, 'model reported usage outside its bounds: clamped');
    }
    try {
      const price = await this.deps.prices.find(reservation.model);
      if (!price) this.deps.logger.warn({ model: reservation.model }, 'no price on record for this model: its usage is logged without a cost');
      const costUsd = price ? callCost(price, used.inputTokens, used.outputTokens) : null;
      return await this.deps.capacity.settle(reservation, { ...used, costUsd, at: this.deps.now() });
    } catch (error) {
      // The reservation stays held until it expires, then is released uncharged: the customer
      // is never charged twice, and never past the cap.
      this.deps.logger.error({ err: error, reservation_id: reservation.id }, 'settling a copilot call failed: its reservation will expire');
      return null;
    }
  }
}
