import { describe, expect, it } from 'vitest';
import { AI_MODEL, aiHarness, readAll, type AiHarness } from '../../test/builders/ai';
import type { Note } from '../notes/note';
import { MAX_OUTPUT_TOKENS, MIN_OUTPUT_TOKENS, estimateTokens } from './capacity-rules';
import { copilotPrompt } from './copilot-prompt';
import type { LanguageModel } from './language-model.port';
import type { CopilotFeature } from './usage-record';

/** What the reservation holds for the input of `feature` on `note`. */
const inputEstimate = (note: Note, feature: CopilotFeature = 'improve') => {
  const prompt = copilotPrompt(feature, 'neutral', note);
  return estimateTokens(prompt.instructions, prompt.input);
};

async function usageRows(h: AiHarness, organizationId: number) {
  return h.usageLog.list(organizationId, null, {});
}

describe('RunCopilotCall: the checks before anything is streamed', () => {
  it("answers RESOURCE_NOT_FOUND for a note that is missing or someone else's, before looking at the plan or the model", async () => {
    const h = aiHarness({ model: null });
    const owner = await h.aCaller('member');
    const note = await h.aNote(owner);
    const colleague = await h.aCaller('member', owner.organizationId);
    // No model and the Free plan (no AI): both would be FEATURE_DISABLED, but the note comes first.
    await expect(h.copilot.execute(colleague, h.input(note))).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    await expect(h.copilot.execute(owner, { ...h.input(note), noteId: 9_999 })).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
  });

  it('answers FEATURE_DISABLED on a plan without enable_ai before looking at capacity, and calls no model', async () => {
    const h = aiHarness();
    const caller = await h.aCaller('member');
    await h.givePlan(caller.organizationId, 0, false);
    await expect(h.copilot.execute(caller, h.input(await h.aNote(caller)))).rejects.toMatchObject({ code: 'FEATURE_DISABLED', details: { feature_key: 'enable_ai' } });
    expect(h.model.calls).toHaveLength(0);
  });

  it('answers FEATURE_DISABLED on the default (Free) plan', async () => {
    const h = aiHarness();
    const caller = await h.aCaller('member');
    await expect(h.copilot.execute(caller, h.input(await h.aNote(caller), undefined, 'summarize'))).rejects.toMatchObject({ code: 'FEATURE_DISABLED' });
  });

  it('takes the default plan when the subscription to an AI plan no longer counts (canceled), and the AI plan while past_due', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller({ tokenLimit: -1 });
    const note = await h.aNote(caller);
    const aiPlan = (await h.aiDeps.plans.forOrganization(caller.organizationId)).plan.name;
    await h.subscribe(caller.organizationId, aiPlan, { status: 'canceled', eventAt: new Date(h.clock.now().getTime() + 1) });
    await expect(h.copilot.execute(caller, h.input(note))).rejects.toMatchObject({ code: 'FEATURE_DISABLED' });
    await h.subscribe(caller.organizationId, aiPlan, { status: 'past_due', eventAt: new Date(h.clock.now().getTime() + 2) });
    await readAll((await h.copilot.execute(caller, h.input(note))).chunks());
    expect(h.model.calls).toHaveLength(1);
  });

  it('answers FEATURE_DISABLED when no model is configured, even on a plan with AI and room', async () => {
    const h = aiHarness({ model: null });
    const caller = await h.anAiCaller({ tokenLimit: -1 });
    await expect(h.copilot.execute(caller, h.input(await h.aNote(caller)))).rejects.toMatchObject({
      code: 'FEATURE_DISABLED',
      message: 'The AI copilot is off on this server: no AI model is configured',
      details: { feature_key: 'enable_ai', reason: 'model_not_configured' },
    });
  });

  it('answers QUOTA_EXCEEDED with the token_limit when capacity cannot hold the input + 200, and holds nothing', async () => {
    const h = aiHarness();
    const caller = await h.aCaller('member');
    const note = await h.aNote(caller);
    const limit = inputEstimate(note) + MIN_OUTPUT_TOKENS - 1;
    await h.givePlan(caller.organizationId, limit);
    await expect(h.copilot.execute(caller, h.input(note))).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', details: { feature_key: 'token_limit', limit } });
    expect(h.model.calls).toHaveLength(0);
    expect(h.tables.reservations.size).toBe(0);
  });

  it('lets exactly input + 200 through, telling the model it may write 200 tokens', async () => {
    const h = aiHarness();
    const caller = await h.aCaller('member');
    const note = await h.aNote(caller);
    await h.givePlan(caller.organizationId, inputEstimate(note) + MIN_OUTPUT_TOKENS);
    await readAll((await h.copilot.execute(caller, h.input(note))).chunks());
    expect(h.model.requests[0]).toMatchObject({ model: AI_MODEL, maxOutputTokens: MIN_OUTPUT_TOKENS });
  });

  it('counts credits as capacity: a zero allotment with enough credits is served from them', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller({ tokenLimit: 0 });
    await h.giveCredits(caller.organizationId, 10_000);
    const note = await h.aNote(caller);
    h.model.script({ usage: { inputTokens: 120, outputTokens: 80 } });
    const call = await h.copilot.execute(caller, h.input(note));
    await readAll(call.chunks());
    expect(await call.settled()).toMatchObject({ allotmentTokens: 0, creditTokens: 200, overageTokens: 0 });
    expect(await h.balance(caller.organizationId)).toBe(9_800);
    expect(h.model.requests[0]!.maxOutputTokens).toBe(MAX_OUTPUT_TOKENS);
  });

  it('refuses beyond capacity with only one overage switch on; serves with both on', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller({ tokenLimit: 0 });
    const note = await h.aNote(caller);
    await h.setOverage(caller.organizationId, true, false);
    await expect(h.copilot.execute(caller, h.input(note))).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    await h.setOverage(caller.organizationId, false, true);
    await expect(h.copilot.execute(caller, h.input(note))).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    await h.setOverage(caller.organizationId, true, true);
    await readAll((await h.copilot.execute(caller, h.input(note))).chunks());
    expect(h.model.requests.map((request) => request.maxOutputTokens)).toEqual([MAX_OUTPUT_TOKENS]);
  });

  it('treats overage as off without a live subscription to bill it on, even with both switches on', async () => {
    const h = aiHarness();
    const caller = await h.aCaller('member');
    // AI on the default plan (no subscription at all), with no tokens: only overage could serve the call.
    const free = await h.plans.findDefault();
    await h.plans.update(free.id, { features: { enable_ai: true, token_limit: 0 }, updatedAt: h.clock.now() });
    const note = await h.aNote(caller);
    await h.setOverage(caller.organizationId, true, true);
    await expect(h.copilot.execute(caller, h.input(note))).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED', details: { feature_key: 'token_limit', limit: 0 } });
    // A subscription that ended leaves the organization on the default plan: still no overage.
    await h.subscribe(caller.organizationId, 'Professional', { status: 'canceled' });
    await expect(h.copilot.execute(caller, h.input(note))).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(h.model.requests).toEqual([]);
  });
});

describe('RunCopilotCall: the output bound', () => {
  it.each([
    ['what capacity leaves after the input', 700, 700],
    ['2000 when capacity allows more', 50_000, MAX_OUTPUT_TOKENS],
  ])('sends max_output_tokens = %s, the bound the reservation holds', async (_, room, bound) => {
    const h = aiHarness();
    const caller = await h.aCaller('member');
    const note = await h.aNote(caller);
    await h.givePlan(caller.organizationId, inputEstimate(note) + room);
    const call = await h.copilot.execute(caller, h.input(note));
    const [reservation] = [...h.tables.reservations.values()];
    expect(reservation).toMatchObject({ max_output_tokens: bound, allotment_tokens: inputEstimate(note) + bound });
    expect(h.model.requests[0]!.maxOutputTokens).toBe(bound);
    await readAll(call.chunks());
  });

  it('estimates the input from everything sent: instructions and note, characters ÷ 4 rounded up', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller();
    const note = await h.aNote(caller, 'x'.repeat(4_001));
    const call = await h.copilot.execute(caller, h.input(note, undefined, 'summarize'));
    const { instructions, input } = h.model.requests[0]!;
    expect([...h.tables.reservations.values()][0]!.input_estimate).toBe(Math.ceil((instructions.length + input.length) / 4));
    expect(input).toContain('x'.repeat(4_001));
    await call.close();
  });
});

describe('RunCopilotCall: a provider that fails before its first byte', () => {
  it('answers SERVICE_UNAVAILABLE, releases the reservation, charges nothing and logs no usage', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller({ tokenLimit: 0 });
    await h.giveCredits(caller.organizationId, 5_000);
    h.model.script({ deltas: [], ending: 'fail' });
    await expect(h.copilot.execute(caller, h.input(await h.aNote(caller)))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(h.tables.reservations.size).toBe(0);
    expect(await h.balance(caller.organizationId)).toBe(5_000);
    expect(await usageRows(h, caller.organizationId)).toEqual([]);
    expect((await h.capacity.snapshot(caller.organizationId, (await h.resolver.forOrganization(caller.organizationId)).period)).allotmentUsed).toBe(0);
  });

  it('turns any other error into SERVICE_UNAVAILABLE: the edge never sees a provider error', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller();
    h.model.script({ deltas: [], ending: 'fail', error: new TypeError('socket hang up') });
    await expect(h.copilot.execute(caller, h.input(await h.aNote(caller)))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(h.tables.reservations.size).toBe(0);
    expect(h.logger.lines.some((line) => line.level === 'warn' && line.message.includes('before its first byte'))).toBe(true);
  });
});

describe('RunCopilotCall: a call that streamed', () => {
  it('charges the usage the provider reported and logs it once, with its cost from the price list', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller({ tokenLimit: 100_000 });
    const note = await h.aNote(caller);
    h.model.script({ deltas: ['Better ', 'note'], usage: { inputTokens: 1_000, outputTokens: 500 } });
    const call = await h.copilot.execute(caller, h.input(note));
    expect(await readAll(call.chunks())).toBe('Better note');
    const record = await call.settled();
    expect(record).toEqual({
      id: expect.any(Number),
      organizationId: caller.organizationId,
      userId: caller.userId,
      feature: 'improve',
      model: AI_MODEL,
      inputTokens: 1_000,
      outputTokens: 500,
      allotmentTokens: 1_500,
      creditTokens: 0,
      overageTokens: 0,
      // 1000 × $1/M + 500 × $4/M
      costUsd: 0.003,
      createdAt: h.clock.now(),
    });
    expect(await usageRows(h, caller.organizationId)).toEqual([record]);
    expect(h.tables.reservations.size).toBe(0);
  });

  it('logs the feature it ran as', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller();
    const call = await h.copilot.execute(caller, h.input(await h.aNote(caller), undefined, 'summarize'));
    await readAll(call.chunks());
    expect(await call.settled()).toMatchObject({ feature: 'summarize' });
  });

  it('logs a null cost and warns when the model has no price on record', async () => {
    const h = aiHarness();
    h.aiDeps.settings.model = 'gpt-unpriced';
    const caller = await h.anAiCaller();
    const call = await h.copilot.execute(caller, h.input(await h.aNote(caller)));
    await readAll(call.chunks());
    expect(await call.settled()).toMatchObject({ model: 'gpt-unpriced', costUsd: null });
    expect(h.logger.lines).toContainEqual(expect.objectContaining({ level: 'warn', fields: { model: 'gpt-unpriced' } }));
  });

  it('when the stream fails mid-way, ends the text without an error and charges the input estimate plus the characters received ÷ 4', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller();
    const note = await h.aNote(caller);
    h.model.script({ deltas: ['Hello', ' world'], ending: 'fail' });
    const call = await h.copilot.execute(caller, h.input(note));
    expect(await readAll(call.chunks())).toBe('Hello world');
    const rows = await usageRows(h, caller.organizationId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ inputTokens: inputEstimate(note), outputTokens: Math.ceil('Hello world'.length / 4), allotmentTokens: inputEstimate(note) + 3 });
    expect(h.logger.lines.some((line) => line.level === 'warn' && line.message.includes('mid-way'))).toBe(true);
  });

  it('when the provider finishes without reporting usage, charges the estimate', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller();
    const note = await h.aNote(caller);
    h.model.script({ deltas: ['abcdefghi'], usage: null });
    const call = await h.copilot.execute(caller, h.input(note));
    await readAll(call.chunks());
    expect(await call.settled()).toMatchObject({ inputTokens: inputEstimate(note), outputTokens: 3 });
  });

  it('when the client aborts mid-stream, aborts the provider call, ends the text and logs the call once', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller();
    const note = await h.aNote(caller);
    h.model.script({ deltas: ['First part'], ending: 'hang' });
    const controller = new AbortController();
    const call = await h.copilot.execute(caller, h.input(note, controller));
    const provider = await h.model.nextCall();
    const reading = readAll(call.chunks());
    controller.abort();
    expect(await reading).toBe('First part');
    expect(provider.aborted).toBe(true);
    expect(await call.settled()).toMatchObject({ inputTokens: inputEstimate(note), outputTokens: Math.ceil('First part'.length / 4) });
    await call.close();
    expect(await usageRows(h, caller.organizationId)).toHaveLength(1);
    expect(h.tables.reservations.size).toBe(0);
  });

  it('when the client leaves before the first byte of a provider that returns on abort, answers SERVICE_UNAVAILABLE, releases the reservation and logs nothing', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller();
    const note = await h.aNote(caller);
    h.model.script({ deltas: [], ending: 'hang' });
    const controller = new AbortController();
    const running = h.copilot.execute(caller, h.input(note, controller));
    const provider = await h.model.nextCall();
    controller.abort();
    await expect(running).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(provider.aborted).toBe(true);
    expect(await usageRows(h, caller.organizationId)).toEqual([]);
    expect(h.tables.reservations.size).toBe(0);
  });

  it('when the client leaves before the first byte of a provider that throws on abort, answers SERVICE_UNAVAILABLE and charges nothing', async () => {
    const throwsOnAbort: LanguageModel = {
      async *stream(request) {
        await new Promise((_, reject) => {
          if (request.signal.aborted) reject(new Error('aborted'));
          request.signal.addEventListener('abort', () => reject(new Error('aborted')));
        });
      },
    };
    const h = aiHarness({ model: throwsOnAbort });
    const caller = await h.anAiCaller();
    const note = await h.aNote(caller);
    const controller = new AbortController();
    controller.abort();
    await expect(h.copilot.execute(caller, h.input(note, controller))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await usageRows(h, caller.organizationId)).toEqual([]);
    expect(h.tables.reservations.size).toBe(0);
  });

  it('settles once when close() is called before iterating, however often: the provider call is let go', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller();
    h.model.script({ deltas: ['unread'], ending: 'hang' });
    const call = await h.copilot.execute(caller, h.input(await h.aNote(caller)));
    const provider = await h.model.nextCall();
    const [first, second] = await Promise.all([call.close(), call.close()]);
    expect(first).not.toBeNull();
    expect(second).toEqual(first);
    expect(await call.close()).toEqual(first);
    expect(await call.settled()).toEqual(first);
    expect(provider.aborted).toBe(true);
    expect(provider.released).toBe(true);
    expect(await usageRows(h, caller.organizationId)).toHaveLength(1);
  });

  it('close() while the text is being read stops a provider that has nothing more to send, ends the text and settles once', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller();
    const note = await h.aNote(caller);
    h.model.script({ deltas: ['Only this'], ending: 'hang' });
    const call = await h.copilot.execute(caller, h.input(note));
    const provider = await h.model.nextCall();
    const reading = readAll(call.chunks());
    await new Promise((resolve) => setTimeout(resolve, 20)); // the reader now waits on the provider, after its one delta
    const record = await call.close();
    expect(await reading).toBe('Only this');
    expect(provider.aborted).toBe(true);
    expect(record).toMatchObject({ inputTokens: inputEstimate(note), outputTokens: Math.ceil('Only this'.length / 4) });
    expect(await call.settled()).toEqual(record);
    expect(await usageRows(h, caller.organizationId)).toHaveLength(1);
    expect(h.tables.reservations.size).toBe(0);
  });

  it('does not abort a provider call that finished, even when close() follows', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller();
    const call = await h.copilot.execute(caller, h.input(await h.aNote(caller)));
    const provider = await h.model.nextCall();
    await readAll(call.chunks());
    await call.close();
    expect(provider.aborted).toBe(false);
    expect(await usageRows(h, caller.organizationId)).toHaveLength(1);
  });

  it('a reader that stops early (break) stops the provider and settles once, for the text it received', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller();
    const note = await h.aNote(caller);
    h.model.script({ deltas: ['One', 'Two'], ending: 'hang' });
    const call = await h.copilot.execute(caller, h.input(note));
    const provider = await h.model.nextCall();
    const read: string[] = [];
    for await (const chunk of call.chunks()) {
      read.push(chunk);
      if (read.length === 2) break;
    }
    expect(read).toEqual(['One', 'Two']);
    expect(provider.aborted).toBe(true);
    expect(provider.released).toBe(true);
    const record = await call.settled();
    expect(record).toMatchObject({ inputTokens: inputEstimate(note), outputTokens: Math.ceil('OneTwo'.length / 4) });
    expect(await call.close()).toEqual(record);
    expect(await call.chunks()[Symbol.asyncIterator]().next()).toEqual({ done: true, value: undefined });
    expect(await usageRows(h, caller.organizationId)).toHaveLength(1);
    expect(h.tables.reservations.size).toBe(0);
  });

  it('return() while a read waits on the provider lets that read finish, then settles once; a usage event mid-way is not text', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller();
    const note = await h.aNote(caller);
    h.model.script({ deltas: ['First'], ending: 'hang' });
    const call = await h.copilot.execute(caller, h.input(note));
    const provider = await h.model.nextCall();
    const chunks = call.chunks()[Symbol.asyncIterator]();
    expect(await chunks.next()).toEqual({ done: false, value: 'First' });
    const waiting = chunks.next();
    const returned = chunks.return!();
    provider.finish({ inputTokens: 30, outputTokens: 2 });
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(await returned).toEqual({ done: true, value: undefined });
    expect(provider.aborted).toBe(false);
    expect(await call.settled()).toMatchObject({ inputTokens: 30, outputTokens: 2 });
    expect(await usageRows(h, caller.organizationId)).toHaveLength(1);
  });

  it('close() after the text was read to the end does not settle again', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller();
    const call = await h.copilot.execute(caller, h.input(await h.aNote(caller)));
    await readAll(call.chunks());
    const record = await call.settled();
    expect(await call.close()).toEqual(record);
    expect(await usageRows(h, caller.organizationId)).toHaveLength(1);
  });
});

describe('RunCopilotCall: the deadline', () => {
  it('aborts a call that streams past settings.maxCallMs and charges what it used', async () => {
    const h = aiHarness();
    h.aiDeps.settings.maxCallMs = 20;
    const caller = await h.anAiCaller();
    const note = await h.aNote(caller);
    h.model.script({ deltas: ['Slow start'], ending: 'hang' });
    const call = await h.copilot.execute(caller, h.input(note));
    const provider = await h.model.nextCall();
    expect(await readAll(call.chunks())).toBe('Slow start');
    expect(provider.aborted).toBe(true);
    expect(await call.settled()).toMatchObject({ inputTokens: inputEstimate(note), outputTokens: Math.ceil('Slow start'.length / 4) });
    expect(h.tables.reservations.size).toBe(0);
  });

  it('stops a provider that keeps its stream open after reporting its usage, after providerEndGraceMs, and charges what it reported', async () => {
    let aborted = false;
    const staysOpen: LanguageModel = {
      async *stream(request) {
        yield { type: 'delta', text: 'All of it' };
        yield { type: 'usage', inputTokens: 40, outputTokens: 3 };
        await new Promise<void>((resolve) => request.signal.addEventListener('abort', () => resolve(), { once: true }));
        aborted = true;
      },
    };
    const h = aiHarness({ model: staysOpen });
    h.aiDeps.settings.providerEndGraceMs = 20;
    const caller = await h.anAiCaller();
    const call = await h.copilot.execute(caller, h.input(await h.aNote(caller)));
    expect(await readAll(call.chunks())).toBe('All of it');
    expect(aborted).toBe(true);
    expect(await call.settled()).toMatchObject({ inputTokens: 40, outputTokens: 3 });
    expect(h.tables.reservations.size).toBe(0);
  });

  it('answers SERVICE_UNAVAILABLE and releases the reservation when the model has not started by the deadline', async () => {
    const h = aiHarness();
    h.aiDeps.settings.maxCallMs = 20;
    const caller = await h.anAiCaller();
    h.model.script({ deltas: [], ending: 'hang' });
    await expect(h.copilot.execute(caller, h.input(await h.aNote(caller)))).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(h.tables.reservations.size).toBe(0);
    expect(await usageRows(h, caller.organizationId)).toEqual([]);
  });
});

describe('RunCopilotCall: charging what the provider reported', () => {
  async function overReported(overage: boolean) {
    const h = aiHarness();
    const caller = await h.aCaller('member');
    const note = await h.aNote(caller);
    const limit = inputEstimate(note) + 500;
    await h.givePlan(caller.organizationId, limit);
    if (overage) await h.setOverage(caller.organizationId, true, true);
    // A tokenizer counting three times the estimate: within what a report is believed.
    h.model.script({ usage: { inputTokens: 3 * inputEstimate(note), outputTokens: 500 } });
    const call = await h.copilot.execute(caller, h.input(note));
    await readAll(call.chunks());
    const period = (await h.resolver.forOrganization(caller.organizationId)).period;
    return { h, caller, limit, record: await call.settled(), snapshot: await h.capacity.snapshot(caller.organizationId, period) };
  }

  it('charges usage beyond the reservation only within the cap when overage is off: the rest is unbilled', async () => {
    const { h, limit, record, snapshot } = await overReported(false);
    expect(record).toMatchObject({ outputTokens: 500, allotmentTokens: limit, creditTokens: 0, overageTokens: 0 });
    expect(snapshot).toEqual({ allotmentUsed: limit, overageTokens: 0, creditBalance: 0 });
    expect(h.tables.overageReports.size).toBe(0);
  });

  it('charges usage beyond capacity to overage and queues its report when both switches are on', async () => {
    const { h, caller, limit, record, snapshot } = await overReported(true);
    const overage = record!.inputTokens + 500 - limit;
    expect(record).toMatchObject({ allotmentTokens: limit, creditTokens: 0, overageTokens: overage });
    expect(snapshot).toEqual({ allotmentUsed: limit, overageTokens: overage, creditBalance: 0 });
    expect([...h.tables.overageReports.values()]).toEqual([
      expect.objectContaining({ usage_id: record!.id, organization_id: caller.organizationId, tokens: overage, status: 'pending', attempts: 0 }),
    ]);
  });

  describe('a report outside its bounds', () => {
    async function reported(usage: { inputTokens: number; outputTokens: number }) {
      const h = aiHarness();
      const caller = await h.anAiCaller({ tokenLimit: 3_000 });
      const note = await h.aNote(caller);
      h.model.script({ deltas: ['abcd'.repeat(10)], usage });
      const call = await h.copilot.execute(caller, h.input(note));
      await readAll(call.chunks());
      const period = (await h.resolver.forOrganization(caller.organizationId)).period;
      return { h, note, record: await call.settled(), snapshot: await h.capacity.snapshot(caller.organizationId, period), maxOutput: h.model.requests[0]!.maxOutputTokens };
    }

    it('charges nothing below zero: a negative count is clamped to 0, so the allotment is never given back', async () => {
      const { record, snapshot } = await reported({ inputTokens: -1_000_000, outputTokens: 10 });
      expect(record).toMatchObject({ inputTokens: 0, outputTokens: 10, allotmentTokens: 10 });
      expect(snapshot.allotmentUsed).toBe(10);
    });

    it('clamps a huge count to its stated maximum, and still settles the call', async () => {
      const { h, note, record, maxOutput } = await reported({ inputTokens: 3e9, outputTokens: 3e9 });
      expect(record).toMatchObject({ inputTokens: 16 * inputEstimate(note) + 256, outputTokens: maxOutput });
      expect(h.tables.reservations.size).toBe(0);
      expect(h.logger.lines.some((line) => line.message.includes('outside its bounds'))).toBe(true);
    });

    it('falls back to the estimate for a count that is not a number', async () => {
      const { note, record } = await reported({ inputTokens: Number.NaN, outputTokens: Number.POSITIVE_INFINITY });
      expect(record).toMatchObject({ inputTokens: inputEstimate(note), outputTokens: 10 });
    });
  });

  it('uses the allotment first, then credits, and writes the credits spent to the ledger', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller({ tokenLimit: 400 });
    await h.giveCredits(caller.organizationId, 10_000);
    h.model.script({ usage: { inputTokens: 300, outputTokens: 1_000 } });
    const call = await h.copilot.execute(caller, h.input(await h.aNote(caller)));
    await readAll(call.chunks());
    const record = await call.settled();
    expect(record).toMatchObject({ allotmentTokens: 400, creditTokens: 900, overageTokens: 0 });
    expect(await h.balance(caller.organizationId)).toBe(9_100);
    expect([...h.tables.creditTransactions.values()].filter((row) => row.kind === 'usage')).toEqual([
      expect.objectContaining({ organization_id: caller.organizationId, tokens: -900, usage_id: record!.id }),
    ]);
  });

  it('gives back held credits the call did not use', async () => {
    const h = aiHarness();
    const caller = await h.anAiCaller({ tokenLimit: 0 });
    await h.giveCredits(caller.organizationId, 10_000);
    h.model.script({ deltas: ['x'], ending: 'hang' });
    const call = await h.copilot.execute(caller, h.input(await h.aNote(caller)));
    const held = [...h.tables.reservations.values()][0]!.credit_tokens;
    expect(await h.balance(caller.organizationId)).toBe(10_000 - held);
    (await h.model.nextCall()).finish({ inputTokens: 100, outputTokens: 20 });
    await readAll(call.chunks());
    expect(await h.balance(caller.organizationId)).toBe(10_000 - 120);
  });

  it('serves concurrent calls only while capacity holds them: the others are refused', async () => {
    const h = aiHarness();
    const caller = await h.aCaller('member');
    const note = await h.aNote(caller);
    // Room for one call with the full 2000 bound and not for a second one's input + 200.
    await h.givePlan(caller.organizationId, inputEstimate(note) + MAX_OUTPUT_TOKENS + inputEstimate(note) + MIN_OUTPUT_TOKENS - 1);
    h.model.script({ ending: 'hang' }).script({ ending: 'hang' });
    const results = await Promise.allSettled([h.copilot.execute(caller, h.input(note)), h.copilot.execute(caller, h.input(note))]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect(results.find((result) => result.status === 'rejected')).toMatchObject({ reason: { code: 'QUOTA_EXCEEDED' } });
    for (const result of results) if (result.status === 'fulfilled') await result.value.close();
  });
});
