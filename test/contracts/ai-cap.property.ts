import { setImmediate as tick } from 'node:timers/promises';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { UserCaller } from '../../core/access/caller';
import { estimateTokens, usableReport } from '../../core/ai/capacity-rules';
import { copilotPrompt } from '../../core/ai/copilot-prompt';
import type { LanguageModel, ModelEvent, ModelRequest } from '../../core/ai/language-model.port';
import { RunCopilotCall, type CopilotDeps } from '../../core/ai/run-copilot-call.use-case';
import type { UsageRecord } from '../../core/ai/usage-record';
import type { Note } from '../../core/notes/note';
import { DomainError, serviceUnavailable } from '../../core/shared/domain-error';

/**
 * The hard cap as a property, for any adapter family: random plans (token_limit -1, 0 or some),
 * credit balances and overage switches, then a batch of concurrent copilot calls through the
 * real use cases whose provider answers at random: usage reported (also more than reserved, or
 * none), failures before the first byte and mid-stream, client aborts. After each batch the
 * books must balance. Each run uses an organization of its own, so one store serves every run.
 */

/** The adapters under test, and raw reads of what they stored for one organization. */
export interface CapSystem {
  /** Everything but the model, which each run brings. */
  deps: Omit<CopilotDeps, 'model'>;
  /** A member of a new organization. */
  newCaller(): Promise<UserCaller>;
  /** Subscribes the organization to a plan of its own with AI and `tokenLimit`, in the calendar month. */
  givePlan(organizationId: number, tokenLimit: number): Promise<void>;
  setOverage(organizationId: number, organization: boolean, system: boolean): Promise<void>;
  /** Credits bought through the ledger. */
  buy(organizationId: number, tokens: number): Promise<void>;
  createNote(caller: UserCaller, title: string, content: string): Promise<Note>;
  books(organizationId: number): Promise<Books>;
}

export interface Books {
  rows: { allotment: number; credits: number; overage: number; input: number; output: number }[];
  /** Summed over the organization's period rows. */
  periodAllotment: number;
  periodOverage: number;
  balance: number;
  reservations: number;
  overageReports: { tokens: number }[];
}

type Behaviour =
  | { kind: 'complete'; deltas: string[]; usage: { inputTokens: number; outputTokens: number } | null }
  | { kind: 'fail-before-first-byte' }
  | { kind: 'fail-mid-stream'; deltas: string[] }
  | { kind: 'client-abort'; deltas: string[] };

/** Answers each request as the behaviour of the call its note names (`#call-<i>`) says. */
class ScriptedModel implements LanguageModel {
  readonly requests: ModelRequest[] = [];

  constructor(private readonly behaviours: Map<string, Behaviour>) {}

  async *stream(request: ModelRequest): AsyncGenerator<ModelEvent> {
    this.requests.push(request);
    const behaviour = this.behaviours.get(/#call-\d+/.exec(request.input)![0])!;
    // Let the other calls move between steps, so that reservations and settlements interleave.
    await tick();
    if (behaviour.kind === 'fail-before-first-byte') throw serviceUnavailable('provider down');
    for (const text of behaviour.deltas) {
      if (request.signal.aborted) return;
      yield { type: 'delta', text };
      await tick();
    }
    if (behaviour.kind === 'fail-mid-stream') throw serviceUnavailable('connection dropped');
    if (behaviour.kind === 'client-abort') {
      // Keeps writing until the client goes away, as a long answer would.
      await new Promise<void>((resolve) => (request.signal.aborted ? resolve() : request.signal.addEventListener('abort', () => resolve())));
      return;
    }
    if (behaviour.usage) yield { type: 'usage', ...behaviour.usage };
  }
}

const text = fc.string({ minLength: 1, maxLength: 40 });
const behaviour: fc.Arbitrary<Behaviour> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('complete' as const),
      deltas: fc.array(text, { minLength: 1, maxLength: 3 }),
      usage: fc.option(fc.record({ inputTokens: fc.nat(3_000), outputTokens: fc.oneof(fc.nat(2_000), fc.integer({ min: 2_000, max: 20_000 })) }), { freq: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'fail-before-first-byte' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('fail-mid-stream' as const), deltas: fc.array(text, { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('client-abort' as const), deltas: fc.array(text, { minLength: 1, maxLength: 2 }) }) },
);
const scenario = fc.record({
  tokenLimit: fc.oneof(fc.constant(-1), fc.constant(0), fc.integer({ min: 1, max: 12_000 })),
  credits: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 10_000 })),
  organizationOverage: fc.boolean(),
  systemOverage: fc.boolean(),
  calls: fc.array(fc.record({ feature: fc.constantFrom('improve' as const, 'summarize' as const), noteLength: fc.nat(4_000), behaviour }), { minLength: 2, maxLength: 12 }),
});

const refusedBeforeStreaming = (reason: unknown) => reason instanceof DomainError && (reason.code === 'QUOTA_EXCEEDED' || reason.code === 'SERVICE_UNAVAILABLE');

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/**
 * Runs the property `numRuns` times on `system`. What must hold after each batch: allotment and
 * credits charged never exceed token_limit (unless -1) + credits bought; the balance is bought −
 * charged and never negative; each call is refused before streaming (no row) or logged exactly
 * once, with the provider's usage or the estimate; no reservation is left; overage only with
 * both switches on, and then nothing goes unbilled and each overage row has its report.
 */
export function assertCapHolds(system: CapSystem, numRuns: number): Promise<void> {
  const { deps: base } = system;
  return fc.assert(
    fc.asyncProperty(scenario, async ({ tokenLimit, credits, organizationOverage, systemOverage, calls }) => {
      const caller = await system.newCaller();
      const { organizationId } = caller;
      await system.setOverage(organizationId, organizationOverage, systemOverage);
      if (credits > 0) await system.buy(organizationId, credits);
      await system.givePlan(organizationId, tokenLimit);
      const behaviours = new Map<string, Behaviour>();
      const model = new ScriptedModel(behaviours);
      const copilot = new RunCopilotCall({ ...base, model });
      const prepared = await Promise.all(
        calls.map(async (call, i) => {
          const marker = `#call-${i}`;
          behaviours.set(marker, call.behaviour);
          const note = await system.createNote(caller, marker, `${marker} ${'n'.repeat(call.noteLength)}`);
          const prompt = copilotPrompt(call.feature, 'neutral', note);
          return { ...call, note, inputEstimate: estimateTokens(prompt.instructions, prompt.input) };
        }),
      );

      const outcomes = await Promise.allSettled(
        prepared.map(async (call) => {
          const controller = new AbortController();
          const running = await copilot.execute(caller, { feature: call.feature, noteId: call.note.id, tone: 'neutral', signal: controller.signal });
          let received = '';
          for await (const chunk of running.chunks()) {
            received += chunk;
            // The client leaves once it has seen some text.
            if (call.behaviour.kind === 'client-abort') controller.abort();
          }
          return { received, record: await running.settled() };
        }),
      );

      const streamed: { call: (typeof prepared)[number]; received: string; record: UsageRecord | null }[] = [];
      outcomes.forEach((outcome, i) => {
        if (outcome.status === 'rejected') expect(refusedBeforeStreaming(outcome.reason), String(outcome.reason)).toBe(true);
        else streamed.push({ call: prepared[i]!, ...outcome.value });
      });
      for (const { call, received, record } of streamed) {
        expect(record).not.toBeNull();
        expect(call.behaviour.kind).not.toBe('fail-before-first-byte');
        // The provider's usage when it reported some, clamped to what a report is believed (the
        // output to the call's bound), else the input estimate and the text received ÷ 4.
        const reported = call.behaviour.kind === 'complete' ? call.behaviour.usage : null;
        const estimate = { inputTokens: call.inputEstimate, outputTokens: Math.ceil([...received].length / 4) };
        const request = model.requests.find((r) => /#call-\d+/.exec(r.input)?.[0] === call.note.title)!;
        const expected = reported ? usableReport(reported, { inputEstimate: call.inputEstimate, maxOutputTokens: request.maxOutputTokens }, estimate) : estimate;
        expect({ inputTokens: record!.inputTokens, outputTokens: record!.outputTokens }).toEqual(expected);
      }
      for (const request of model.requests) {
        expect(request.maxOutputTokens).toBeGreaterThanOrEqual(200);
        expect(request.maxOutputTokens).toBeLessThanOrEqual(2_000);
      }

      const after = await system.books(organizationId);
      expect(after.rows).toHaveLength(streamed.length);
      expect(after.reservations).toBe(0);
      const allotment = sum(after.rows.map((row) => row.allotment));
      const creditsSpent = sum(after.rows.map((row) => row.credits));
      const overage = sum(after.rows.map((row) => row.overage));
      if (tokenLimit !== -1) expect(allotment).toBeLessThanOrEqual(tokenLimit);
      expect(creditsSpent).toBeLessThanOrEqual(credits);
      expect(after.balance).toBe(credits - creditsSpent);
      expect(after.balance).toBeGreaterThanOrEqual(0);
      expect(after.periodAllotment).toBe(allotment);
      expect(after.periodOverage).toBe(overage);
      for (const row of after.rows) expect(row.allotment + row.credits + row.overage).toBeLessThanOrEqual(row.input + row.output);
      if (organizationOverage && systemOverage) {
        // Nothing goes unbilled: what capacity could not cover is overage, reported once per row.
        for (const row of after.rows) expect(row.allotment + row.credits + row.overage).toBe(row.input + row.output);
        const byTokens = (a: number, b: number) => a - b;
        expect(after.overageReports.map((report) => report.tokens).sort(byTokens)).toEqual(after.rows.filter((row) => row.overage > 0).map((row) => row.overage).sort(byTokens));
      } else {
        expect(overage).toBe(0);
        expect(after.overageReports).toEqual([]);
      }
    }),
    { numRuns },
  );
}
