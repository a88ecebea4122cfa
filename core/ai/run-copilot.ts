import type { Caller } from '../accounts/caller';
import { noteOwner } from '../notes/note-access';
import { quotaExceeded } from '../plans/quota';
import { DomainError, resourceNotFound, serviceUnavailable } from '../shared/domain-error';
import type { AiDeps } from './ai-deps';
import { estimateTokens } from './capacity-rules';
import { CopilotCall } from './copilot-call';
import { copilotPrompt, type CopilotTone } from './copilot-prompt';
import type { ModelEvent } from './language-model.port';
import type { CopilotFeature } from './usage-record';

export interface CopilotInput {
  noteId: number;
  tone: CopilotTone;
  /** Ends the provider call: the client went away, or the call ran past the edge's limit. */
  signal: AbortSignal;
}

export type CopilotDeps = Pick<AiDeps, 'notes' | 'model' | 'capacity' | 'plans' | 'organizations' | 'systemSettings' | 'prices' | 'clock' | 'logger' | 'settings'>;

export const aiDisabled = () => new DomainError('FEATURE_DISABLED', 'The AI copilot is not available on this plan', { feature_key: 'enable_ai' });

/**
 * A copilot call on one of the caller's notes, up to its first byte. The checks run in this
 * order, before anything is streamed: the note exists (RESOURCE_NOT_FOUND), a model is
 * configured and the plan enables AI (FEATURE_DISABLED), the capacity holds the call
 * (QUOTA_EXCEEDED, with the plan's `token_limit`). Then the model is called with the output bound
 * the reservation allows; a provider that fails before its first delta releases the reservation
 * and answers SERVICE_UNAVAILABLE, charging nothing; so does a call aborted before its first
 * byte (the client left, or the model was too slow to start). What is returned streams the rest and
 * settles the call whatever happens (see CopilotCall).
 */
export class RunCopilot {
  constructor(
    private readonly deps: CopilotDeps,
    private readonly feature: CopilotFeature,
  ) {}

  async execute(caller: Caller, input: CopilotInput): Promise<CopilotCall> {
    const { notes, model, capacity, plans, clock, settings } = this.deps;
    const owner = noteOwner(caller);
    // Read together, judged in order: the first byte waits on one round of reads, not four.
    const [note, { plan, period }, overageAllowed] = await Promise.all([
      notes.findById(owner, input.noteId),
      plans.forOrganization(caller.organizationId),
      this.overageAllowed(caller.organizationId),
    ]);
    if (!note) throw resourceNotFound('note', input.noteId);
    if (!model || !plan.features.enable_ai) throw aiDisabled();

    const prompt = copilotPrompt(this.feature, input.tone, note);
    const now = clock.now();
    const reservation = await capacity.reserve({
      organizationId: caller.organizationId,
      userId: caller.userId,
      feature: this.feature,
      model: settings.model,
      period,
      allotmentLimit: plan.features.token_limit,
      inputEstimate: estimateTokens(prompt.instructions, prompt.input),
      overageAllowed,
      createdAt: now,
      expiresAt: new Date(now.getTime() + settings.reservationTtlMs),
    });
    if (!reservation) throw quotaExceeded('token_limit', plan.features.token_limit);

    const controller = new AbortController();
    const abort = () => controller.abort();
    if (input.signal.aborted) abort();
    else input.signal.addEventListener('abort', abort, { once: true });
    const events = model.stream({ model: settings.model, ...prompt, maxOutputTokens: reservation.maxOutputTokens, signal: controller.signal })[Symbol.asyncIterator]();
    const buffered: string[] = [];
    const call = new CopilotCall(reservation, buffered, events, controller, {
      capacity,
      prices: this.deps.prices,
      logger: this.deps.logger,
      now: () => clock.now(),
    });
    try {
      for (;;) {
        const next = await events.next();
        if (next.done) break;
        call.observe(next.value);
        if (isText(next.value)) {
          buffered.push(next.value.text);
          break;
        }
      }
    } catch (error) {
      controller.abort();
      await this.giveBack(reservation.id, error);
      throw error instanceof DomainError && error.code === 'SERVICE_UNAVAILABLE' ? error : serviceUnavailable('The AI model is unavailable, try again shortly');
    }
    if (controller.signal.aborted && buffered.length === 0) {
      // Ended before its first byte (the client left, or the model took too long to start):
      // nothing was delivered, so, like a provider failure, nothing is charged.
      await this.giveBack(reservation.id, null);
      throw serviceUnavailable('The AI model did not answer in time');
    }
    return call;
  }

  /** A call that ends before its first byte: the reservation is released and nothing is logged. */
  private async giveBack(reservationId: number, error: unknown): Promise<void> {
    await this.deps.capacity.release(reservationId);
    this.deps.logger.warn({ err: error ?? undefined, reservation_id: reservationId }, 'model call ended before its first byte: reservation released');
  }

  private async overageAllowed(organizationId: number): Promise<boolean> {
    const [organization, system] = await Promise.all([this.deps.organizations.findSettings(organizationId), this.deps.systemSettings.get()]);
    return Boolean(organization?.overageEnabled && system.aiOverageEnabled);
  }
}

const isText = (event: ModelEvent): event is Extract<ModelEvent, { type: 'delta' }> => event.type === 'delta' && event.text.length > 0;
