import type { Caller } from '../access/caller';
import type { Note } from '../notes/note';
import { noteOwner } from '../notes/note-access';
import type { NoteOwner } from '../notes/note-repository.port';
import { selectEffectivePlan, subscriptionCounts } from '../plans/effective-plan';
import type { Plan } from '../plans/plan';
import type { Period } from '../plans/usage-period';
import { quotaExceeded } from '../plans/quota';
import { DomainError, resourceNotFound, serviceUnavailable } from '../shared/domain-error';
import type { AiDeps } from './ai-deps';
import { estimateTokens } from './capacity-rules';
import { CopilotCall } from './copilot-call';
import type { CopilotReader } from './copilot-reads.port';
import { copilotPrompt, type CopilotTone } from './copilot-prompt';
import type { ModelEvent } from './language-model.port';
import type { CopilotFeature } from './usage-record';

export interface CopilotInput {
  noteId: number;
  tone: CopilotTone;
  /** Ends the provider call: the client went away, or the call ran past the edge's limit. */
  signal: AbortSignal;
}

export type CopilotDeps = Pick<
  AiDeps,
  'notes' | 'model' | 'capacity' | 'plans' | 'organizations' | 'systemSettings' | 'prices' | 'clock' | 'logger' | 'settings' | 'reader'
>;

/** What the checks judge, read before any of them runs. */
interface PreCheckReads {
  note: Note | null;
  plan: Plan;
  period: Period;
  overageAllowed: boolean;
}

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

/**
 * A copilot call on one of the caller's notes, up to its first byte. The checks run in this
 * order, before anything is streamed: the note exists (RESOURCE_NOT_FOUND), a model is
 * configured, then the plan enables AI (FEATURE_DISABLED, each with its own message), the capacity holds the call
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
    const { model, capacity, clock, settings } = this.deps;
    const owner = noteOwner(caller);
    // Read together, judged in order: the first byte waits on one round of reads, not four.
    const { note, plan, period, overageAllowed } = this.deps.reader
      ? await this.readAtOnce(this.deps.reader, owner, input.noteId, caller.organizationId)
      : await this.readApart(owner, input.noteId, caller.organizationId);
    if (!note) throw resourceNotFound('note', input.noteId);
    if (!model) throw aiNotConfigured(settings.modelSetting);
    if (!plan.features.enable_ai) throw aiDisabled();

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

  /** The note, the effective plan and the overage switches from one read of everything they depend on. */
  private async readAtOnce(reader: CopilotReader, owner: NoteOwner, noteId: number, organizationId: number): Promise<PreCheckReads> {
    const reads = await reader.read(owner, noteId, organizationId);
    // What EffectivePlanResolver decides, from the same rows: the product's plan only while the subscription counts, else the default.
    const subscribedPlan = subscriptionCounts(reads.subscription) ? reads.productPlan : null;
    const defaultPlan = subscribedPlan ? null : reads.defaultPlan;
    if (!subscribedPlan && !defaultPlan) throw new Error('No default plan: the plan table lost its invariant');
    const { plan, period } = selectEffectivePlan(reads.subscription, subscribedPlan, (defaultPlan ?? subscribedPlan)!, this.deps.clock.now());
    return { note: reads.note, plan, period, overageAllowed: reads.organizationOverage && reads.systemOverage };
  }

  private async readApart(owner: NoteOwner, noteId: number, organizationId: number): Promise<PreCheckReads> {
    const [note, { plan, period }, overageAllowed] = await Promise.all([
      this.deps.notes.findById(owner, noteId),
      this.deps.plans.forOrganization(organizationId),
      this.overageAllowed(organizationId),
    ]);
    return { note, plan, period, overageAllowed };
  }

  private async overageAllowed(organizationId: number): Promise<boolean> {
    const [organization, system] = await Promise.all([this.deps.organizations.findSettings(organizationId), this.deps.systemSettings.get()]);
    return Boolean(organization?.overageEnabled && system.aiOverageEnabled);
  }
}

const isText = (event: ModelEvent): event is Extract<ModelEvent, { type: 'delta' }> => event.type === 'delta' && event.text.length > 0;
