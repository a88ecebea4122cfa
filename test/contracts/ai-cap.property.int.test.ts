import { setImmediate as tick } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../adapters/postgres/database';
import { PostgresAiCapacity } from '../../adapters/postgres/postgres-ai-capacity';
import { PostgresCreditLedger } from '../../adapters/postgres/postgres-credit-ledger';
import { PostgresModelPriceRepository } from '../../adapters/postgres/postgres-model-price-repository';
import { PostgresNoteRepository } from '../../adapters/postgres/postgres-note-repository';
import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresSystemSettingsRepository } from '../../adapters/postgres/postgres-system-settings-repository';
import type { Caller } from '../../core/accounts/caller';
import { estimateTokens } from '../../core/ai/capacity-rules';
import { copilotPrompt } from '../../core/ai/copilot-prompt';
import { ImproveNote } from '../../core/ai/improve-note.use-case';
import type { LanguageModel, ModelEvent, ModelRequest } from '../../core/ai/language-model.port';
import type { CopilotDeps } from '../../core/ai/run-copilot';
import { SummarizeNote } from '../../core/ai/summarize-note.use-case';
import type { UsageRecord } from '../../core/ai/usage-record';
import type { EffectivePlan } from '../../core/plans/effective-plan';
import { calendarMonth } from '../../core/plans/usage-period';
import { DomainError, serviceUnavailable } from '../../core/shared/domain-error';
import { FakeClock } from '../support/fake-clock';
import { createTestDatabase, requirePostgres } from '../support/postgres';
import { recordingLogger } from '../support/recording-logger';
import { insertOrganization, insertUser } from '../support/sessions';

/**
 * The hard cap, end to end on real PostgreSQL: random plans, credit balances and overage
 * switches, and a batch of concurrent copilot calls through the real use cases (several
 * connections really race for the organization's lock) whose provider answers at random: usage
 * reported (also more than reserved, or none), failures before the first byte and mid-stream,
 * client aborts. After each batch the books must balance. Each run uses an organization of its
 * own in one database. Checked red by reading the capacity in the locking statement again (its
 * snapshot predates the lock) and by dropping FOR NO KEY UPDATE.
 */
const NUM_RUNS = Number(process.env.AI_PROPERTY_RUNS ?? 25);
const MODEL = 'gpt-5-mini';

type Behaviour =
  | { kind: 'complete'; deltas: string[]; usage: { inputTokens: number; outputTokens: number } | null }
  | { kind: 'fail-before-first-byte' }
  | { kind: 'fail-mid-stream'; deltas: string[] }
  | { kind: 'client-abort'; deltas: string[] };

interface CallPlan {
  feature: 'improve' | 'summarize';
  noteLength: number;
  behaviour: Behaviour;
}

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

const text = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.length > 0);
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
  calls: fc.array(
    fc.record({ feature: fc.constantFrom('improve' as const, 'summarize' as const), noteLength: fc.nat(4_000), behaviour }),
    { minLength: 2, maxLength: 12 },
  ),
});

const refusedBeforeStreaming = (reason: unknown) => reason instanceof DomainError && (reason.code === 'QUOTA_EXCEEDED' || reason.code === 'SERVICE_UNAVAILABLE');

async function readCall(call: Awaited<ReturnType<ImproveNote['execute']>>, behaviour: Behaviour, controller: AbortController): Promise<string> {
  let received = '';
  for await (const chunk of call.chunks()) {
    received += chunk;
    // The client leaves once it has seen some text.
    if (behaviour.kind === 'client-abort') controller.abort();
  }
  return received;
}

interface Books {
  rows: { allotment: number; credits: number; overage: number; input: number; output: number }[];
  periodAllotment: number;
  periodOverage: number;
  balance: number;
  reservations: number;
  overageReports: { tokens: number }[];
}

async function books(database: Database, organizationId: number): Promise<Books> {
  const rows = await database.select<{ allotment_tokens: number; credit_tokens: number; overage_tokens: number; input_tokens: number; output_tokens: number }>(
    'select allotment_tokens, credit_tokens, overage_tokens, input_tokens, output_tokens from llm_usage_log where organization_id = $1',
    [organizationId],
  );
  const [period] = await database.select<{ allotment: string | null; overage: string | null }>(
    'select sum(allotment_tokens) as allotment, sum(overage_tokens) as overage from ai_period_usage where organization_id = $1',
    [organizationId],
  );
  const [account] = await database.select<{ balance: string }>('select balance from ai_credit_account where organization_id = $1', [organizationId]);
  const [held] = await database.select<{ count: string }>('select count(*) as count from ai_reservation where organization_id = $1', [organizationId]);
  const reports = await database.select<{ tokens: number }>('select tokens from ai_overage_report where organization_id = $1', [organizationId]);
  return {
    rows: rows.map((r) => ({ allotment: r.allotment_tokens, credits: r.credit_tokens, overage: r.overage_tokens, input: r.input_tokens, output: r.output_tokens })),
    periodAllotment: Number(period?.allotment ?? 0),
    periodOverage: Number(period?.overage ?? 0),
    balance: Number(account?.balance ?? 0),
    reservations: Number(held!.count),
    overageReports: reports,
  };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

const postgres = await requirePostgres();

describe.skipIf(!postgres)('the AI hard cap under concurrent calls, on the PostgreSQL server', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.drop());

  it('never charges past token_limit + credits bought, keeps the balance exact and non-negative, logs every streamed call once, leaves no reservation, and bills overage only with both switches on', async () => {
    const { database } = db;
    const clock = new FakeClock('2026-11-21T10:00:00.000Z');
    const organizations = new PostgresOrganizationRepository(database);
    const notes = new PostgresNoteRepository(database);
    const ledger = new PostgresCreditLedger(database);
    const systemSettings = new PostgresSystemSettingsRepository(database);
    let purchase = 0;

    await fc.assert(
      fc.asyncProperty(scenario, async ({ tokenLimit, credits, organizationOverage, systemOverage, calls }) => {
        const organizationId = await insertOrganization(database);
        const userId = await insertUser(database, organizationId);
        const caller: Caller = { organizationId, userId, role: 'member', sessionId: 0, mfaSatisfied: true };
        await organizations.updateSettings(organizationId, { overageEnabled: organizationOverage });
        await systemSettings.update({ aiOverageEnabled: systemOverage }, clock.now());
        if (credits > 0) {
          purchase += 1;
          expect(await ledger.credit({ organizationId, checkoutSessionId: `cs_property_${purchase}`, packId: 'pack_5m', tokens: credits, at: clock.now() })).toBe(true);
        }
        const plan = { id: 1, name: 'Random', description: null, features: { max_notes: -1, max_projects: -1, token_limit: tokenLimit, enable_ai: true } };
        const effective: EffectivePlan = {
          plan: { ...plan, stripeProductId: null, isDefault: false, isActive: true, createdAt: clock.now(), updatedAt: clock.now() },
          subscribed: true,
          period: calendarMonth(clock.now()),
        };
        const behaviours = new Map<string, Behaviour>();
        const model = new ScriptedModel(behaviours);
        const deps: CopilotDeps = {
          notes,
          model,
          capacity: new PostgresAiCapacity(database),
          plans: { forOrganization: async () => effective },
          organizations,
          systemSettings,
          prices: new PostgresModelPriceRepository(database),
          clock,
          logger: recordingLogger(),
          settings: { model: MODEL, reservationTtlMs: 600_000 },
        };
        const useCases = { improve: new ImproveNote(deps), summarize: new SummarizeNote(deps) };
        const prepared = await Promise.all(
          calls.map(async (callPlan: CallPlan, i) => {
            const marker = `#call-${i}`;
            behaviours.set(marker, callPlan.behaviour);
            const note = await notes.create(caller, { title: marker, content: `${marker} ${'n'.repeat(callPlan.noteLength)}`, createdAt: clock.now() });
            const prompt = copilotPrompt(callPlan.feature, 'neutral', note);
            return { ...callPlan, note, inputEstimate: estimateTokens(prompt.instructions, prompt.input) };
          }),
        );

        const outcomes = await Promise.allSettled(
          prepared.map(async (call) => {
            const controller = new AbortController();
            const running = await useCases[call.feature].execute(caller, { noteId: call.note.id, tone: 'neutral', signal: controller.signal });
            const received = await readCall(running, call.behaviour, controller);
            return { received, record: await running.settled() };
          }),
        );

        // Each call is refused before streaming, or streamed and was logged exactly once.
        const streamed: { call: (typeof prepared)[number]; received: string; record: UsageRecord | null }[] = [];
        outcomes.forEach((outcome, i) => {
          if (outcome.status === 'rejected') expect(refusedBeforeStreaming(outcome.reason), String(outcome.reason)).toBe(true);
          else streamed.push({ call: prepared[i]!, ...outcome.value });
        });
        for (const { call, received, record } of streamed) {
          expect(record).not.toBeNull();
          expect(call.behaviour.kind).not.toBe('fail-before-first-byte');
          // The provider's usage when it reported some, else the input estimate and the text received ÷ 4.
          const reported = call.behaviour.kind === 'complete' ? call.behaviour.usage : null;
          const expected = reported ?? { inputTokens: call.inputEstimate, outputTokens: Math.ceil([...received].length / 4) };
          expect({ inputTokens: record!.inputTokens, outputTokens: record!.outputTokens }).toEqual(expected);
        }
        for (const request of model.requests) {
          expect(request.maxOutputTokens).toBeGreaterThanOrEqual(200);
          expect(request.maxOutputTokens).toBeLessThanOrEqual(2_000);
        }

        const after = await books(database, organizationId);
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
          expect(after.overageReports.map((report) => report.tokens).sort((a, b) => a - b)).toEqual(after.rows.filter((row) => row.overage > 0).map((row) => row.overage).sort((a, b) => a - b));
        } else {
          expect(overage).toBe(0);
          expect(after.overageReports).toEqual([]);
        }
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
