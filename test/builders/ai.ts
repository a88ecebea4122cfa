import { InMemoryAiCapacity } from '../../adapters/in-memory/in-memory-ai-capacity';
import { UNLIMITED } from '../../core/plans/feature-catalogue';
import { InMemoryModelPriceRepository, InMemorySystemSettingsRepository } from '../../adapters/in-memory/in-memory-ai-settings';
import { aiTables, type AiTables } from '../../adapters/in-memory/in-memory-ai-tables';
import { InMemoryCopilotAdmission } from '../../adapters/in-memory/in-memory-copilot-admission';
import { InMemoryCreditLedger } from '../../adapters/in-memory/in-memory-credit-ledger';
import { InMemoryOverageReportStore } from '../../adapters/in-memory/in-memory-overage-report-store';
import { InMemoryUsageLog } from '../../adapters/in-memory/in-memory-usage-log';
import type { UserCaller } from '../../core/access/caller';
import type { RoleName } from '../../core/access/role';
import type { AiDeps } from '../../core/ai/ai-deps';
import { RunCopilotCall, type CopilotCallInput } from '../../core/ai/run-copilot-call.use-case';
import type { LanguageModel } from '../../core/ai/language-model.port';
import type { ModelPrice } from '../../core/ai/model-price.port';
import type { Note } from '../../core/notes/note';
import type { CopilotFeature } from '../../core/ai/usage-record';
import { FakeLanguageModel } from '../fakes/fake-language-model';
import { recordingLogger } from '../support/recording-logger';
import { plansHarness, type PlansHarness } from './plans';

export const AI_MODEL = 'gpt-test';
export const AI_PRICE: ModelPrice = { model: AI_MODEL, inputUsdPerMillion: 1, outputUsdPerMillion: 4 };
export const MAX_CALL_MS = 3 * 60_000;
export const RESERVATION_TTL_MS = 10 * 60_000;

export interface AiHarness extends PlansHarness {
  /** The fake model, unless the harness was given another model (or none). */
  model: FakeLanguageModel;
  capacity: InMemoryAiCapacity;
  ledger: InMemoryCreditLedger;
  usageLog: InMemoryUsageLog;
  overageReports: InMemoryOverageReportStore;
  systemSettings: InMemorySystemSettingsRepository;
  prices: InMemoryModelPriceRepository;
  /** The AI rows in the store, for assertions on what was written. */
  tables: AiTables;
  logger: ReturnType<typeof recordingLogger>;
  aiDeps: AiDeps;
  copilot: RunCopilotCall;
  /** A caller in a new organization (or `organizationId`) on a plan with AI and this `token_limit`. */
  anAiCaller(options?: { tokenLimit?: number; role?: RoleName; organizationId?: number }): Promise<UserCaller>;
  /** Moves the organization to a plan with AI enabled (unless `enableAi` is false) and `tokenLimit`. */
  givePlan(organizationId: number, tokenLimit: number, enableAi?: boolean): Promise<void>;
  /** Buys `tokens` of credits for the organization, through the ledger as a paid pack would. */
  giveCredits(organizationId: number, tokens: number): Promise<void>;
  /** Sets the organization's and the system's overage switches. */
  setOverage(organizationId: number, organization: boolean, system?: boolean): Promise<void>;
  /** A note of the caller's, whose text is `content`. */
  aNote(caller: UserCaller, content?: string): Promise<Note>;
  /** The copilot input for `feature` (improve unless said) on a note, with a signal the test may abort. */
  input(note: Note, controller?: AbortController, feature?: CopilotFeature): CopilotCallInput;
  balance(organizationId: number): Promise<number>;
}

/**
 * The AI copilot's use cases on the in-memory adapters over `plansHarness()`'s store, with a
 * FakeLanguageModel the test drives, one priced model, and every overage switch off.
 */
export function aiHarness(options: { model?: LanguageModel | null } = {}): AiHarness {
  const h = plansHarness();
  const model = options.model === undefined ? new FakeLanguageModel() : options.model;
  const capacity = new InMemoryAiCapacity(h.store);
  const ledger = new InMemoryCreditLedger(h.store);
  const usageLog = new InMemoryUsageLog(h.store);
  const overageReports = new InMemoryOverageReportStore(h.store);
  const systemSettings = new InMemorySystemSettingsRepository();
  const prices = new InMemoryModelPriceRepository([AI_PRICE]);
  const logger = recordingLogger();
  const admission = new InMemoryCopilotAdmission({ notes: h.notes, plans: h.resolver, organizations: h.ports.organizations, systemSettings, capacity, prices });
  const aiDeps: AiDeps = {
    model,
    capacity,
    admission,
    plans: h.resolver,
    systemSettings,
    usageLog,
    overageReports,
    clock: h.clock,
    logger,
    settings: { model: AI_MODEL, maxCallMs: MAX_CALL_MS, reservationTtlMs: RESERVATION_TTL_MS },
  };
  let plansMade = 0;
  let purchases = 0;
  const givePlan = async (organizationId: number, tokenLimit: number, enableAi = true) => {
    plansMade += 1;
    const name = `AI plan ${plansMade}`;
    const created = await h.plans.create({
      name,
      description: null,
      features: { token_limit: tokenLimit, enable_ai: enableAi },
      stripeProductId: `prod_ai_${plansMade}`,
      createdAt: h.clock.now(),
    });
    if (!('plan' in created)) throw new Error(`could not create ${name}: ${created.conflict}`);
    await h.subscribe(organizationId, name);
  };
  return {
    ...h,
    model: model as FakeLanguageModel,
    capacity,
    ledger,
    usageLog,
    overageReports,
    systemSettings,
    prices,
    tables: aiTables(h.store),
    logger,
    aiDeps,
    copilot: new RunCopilotCall(aiDeps),
    givePlan,
    async anAiCaller({ tokenLimit = 100_000, role = 'member', organizationId } = {}) {
      const caller = await h.aCaller(role, organizationId);
      if (organizationId === undefined) await givePlan(caller.organizationId, tokenLimit);
      return caller;
    },
    async giveCredits(organizationId, tokens) {
      purchases += 1;
      const credited = await ledger.credit({ organizationId, checkoutSessionId: `cs_test_${purchases}`, packId: 'pack_test', tokens, at: h.clock.now() });
      if (!credited) throw new Error(`organization ${organizationId} was not credited`);
    },
    async setOverage(organizationId, organization, system = organization) {
      await h.ports.organizations.updateSettings(organizationId, { overageEnabled: organization });
      await systemSettings.update({ aiOverageEnabled: system });
    },
    async aNote(caller, content = 'Buy milk and bread.') {
      return (await h.notes.createWithinLimit(caller, { title: 'Groceries', content, createdAt: h.clock.now() }, UNLIMITED))!;
    },
    input(note, controller = new AbortController(), feature = 'improve') {
      return { feature, noteId: note.id, tone: 'neutral', signal: controller.signal };
    },
    async balance(organizationId) {
      return (await capacity.snapshot(organizationId, { start: new Date(0), end: new Date(0) })).creditBalance;
    },
  };
}

/** Reads a call's text to the end, as the HTTP edge does. */
export async function readAll(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}
