import { UNLIMITED } from '../../core/plans/feature-catalogue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrganizationRepository } from '../../core/accounts/organization-repository.port';
import type { AiCapacity } from '../../core/ai/ai-capacity.port';
import { MAX_OUTPUT_TOKENS, MIN_OUTPUT_TOKENS } from '../../core/ai/capacity-rules';
import type { AdmissionRequest, CopilotAdmission } from '../../core/ai/copilot-admission.port';
import { noteInputEstimate, promptCharacters } from '../../core/ai/copilot-prompt';
import type { SystemSettingsRepository } from '../../core/ai/system-settings.port';
import type { SubscriptionState } from '../../core/billing/subscription';
import type { SubscriptionRepository } from '../../core/billing/subscription-repository.port';
import type { Note } from '../../core/notes/note';
import type { NoteRepository } from '../../core/notes/note-repository.port';
import type { PlanRepository } from '../../core/plans/plan-repository.port';
import { calendarMonth } from '../../core/plans/usage-period';
import type { Tenants } from './tenants';

/** The admission and the repositories the suite sets its facts up through, over one store. */
export interface CopilotAdmissionHarness extends Pick<Tenants, 'newTenant' | 'newUser'> {
  admission: CopilotAdmission;
  capacity: AiCapacity;
  notes: Pick<NoteRepository, 'createWithinLimit'>;
  plans: Pick<PlanRepository, 'create'>;
  subscriptions: Pick<SubscriptionRepository, 'applyState'>;
  organizations: Pick<OrganizationRepository, 'updateSettings'>;
  systemSettings: SystemSettingsRepository;
  reservationCount(organizationId: number): Promise<number>;
  close(): Promise<void>;
}

// Far from the wall clock, so that each time below came from the request.
const NOW = new Date('2031-03-10T10:00:00.000Z');
const PROMPT = promptCharacters('improve', 'neutral');

/**
 * The CopilotAdmission contract, run against every adapter family: the checks in their order,
 * the effective plan and period the reservation is made in, the input estimate, and nothing held
 * on a refusal. Each test works in organizations it creates, so tests share one store.
 */
export function copilotAdmissionContract(name: string, open: () => Promise<CopilotAdmissionHarness>): void {
  describe(`CopilotAdmission contract: ${name}`, () => {
    let h: CopilotAdmissionHarness;
    let plansMade = 0;

    beforeAll(async () => {
      h = await open();
      await h.systemSettings.update({ aiOverageEnabled: false }, NOW);
    });
    afterAll(async () => h?.close());

    const request = (tenant: { organizationId: number; userId: number }, noteId: number, overrides: Partial<AdmissionRequest> = {}): AdmissionRequest => ({
      owner: tenant,
      noteId,
      feature: 'improve',
      model: 'gpt-test',
      aiConfigured: true,
      promptCharacters: PROMPT,
      createdAt: NOW,
      expiresAt: new Date(NOW.getTime() + 600_000),
      ...overrides,
    });

    const aNote = async (tenant: { organizationId: number; userId: number }, content = 'Buy milk and bread.'): Promise<Note> =>
      (await h.notes.createWithinLimit(tenant, { title: 'Groceries', content, createdAt: NOW }, UNLIMITED))!;

    /** A plan sold as its own product, with these features, and the organization subscribed to it. */
    async function subscribe(organizationId: number, features: { token_limit?: number; enable_ai?: boolean }, state: Partial<SubscriptionState> = {}) {
      plansMade += 1;
      const productId = `prod_admission_${plansMade}_${Math.random().toString(36).slice(2)}`;
      const created = await h.plans.create({ name: `Admission ${productId}`, description: null, features, stripeProductId: productId, createdAt: NOW });
      if (!('plan' in created)) throw new Error(`plan not created: ${created.conflict}`);
      await moveSubscription(organizationId, productId, state);
      return productId;
    }

    /** An event of the organization's subscription to this product, in this state (later events move the same subscription). */
    async function moveSubscription(organizationId: number, productId: string, state: Partial<SubscriptionState>) {
      plansMade += 1;
      await h.subscriptions.applyState(organizationId, {
        customerId: `cus_${productId}`,
        subscriptionId: `sub_${productId}`,
        status: 'active',
        priceId: null,
        productId,
        currentPeriodStart: new Date('2031-03-05T08:00:00.000Z'),
        currentPeriodEnd: new Date('2031-04-05T08:00:00.000Z'),
        cancelAtPeriodEnd: false,
        eventAt: new Date(NOW.getTime() - 1_000 + plansMade),
        updatedAt: NOW,
        ...state,
      });
    }

    it("refuses a missing note or someone else's as note_not_found before any other check", async () => {
      const owner = await h.newTenant();
      const note = await aNote(owner);
      const colleague = { organizationId: owner.organizationId, userId: await h.newUser(owner.organizationId) };
      // Not configured and on the default plan: both would be ai_disabled, but the note comes first.
      expect(await h.admission.admit(request(colleague, note.id, { aiConfigured: false }))).toEqual({ outcome: 'note_not_found' });
      expect(await h.admission.admit(request(owner, note.id + 1_000_000))).toEqual({ outcome: 'note_not_found' });
    });

    it('refuses as ai_disabled without a model, on the default plan, and on a plan without enable_ai, holding nothing', async () => {
      const tenant = await h.newTenant();
      const note = await aNote(tenant);
      expect(await h.admission.admit(request(tenant, note.id))).toEqual({ outcome: 'ai_disabled' });
      await subscribe(tenant.organizationId, { token_limit: -1, enable_ai: false });
      expect(await h.admission.admit(request(tenant, note.id))).toEqual({ outcome: 'ai_disabled' });
      await subscribe(tenant.organizationId, { token_limit: -1, enable_ai: true });
      expect(await h.admission.admit(request(tenant, note.id, { aiConfigured: false }))).toEqual({ outcome: 'ai_disabled' });
      expect(await h.reservationCount(tenant.organizationId)).toBe(0);
    });

    it('takes the subscribed plan only while the subscription counts (past_due does, canceled does not)', async () => {
      const tenant = await h.newTenant();
      const note = await aNote(tenant);
      const productId = await subscribe(tenant.organizationId, { token_limit: -1, enable_ai: true }, { status: 'past_due' });
      expect(await h.admission.admit(request(tenant, note.id))).toMatchObject({ outcome: 'reserved' });
      await moveSubscription(tenant.organizationId, productId, { status: 'canceled' });
      expect(await h.admission.admit(request(tenant, note.id))).toEqual({ outcome: 'ai_disabled' });
    });

    it('refuses as quota_exceeded with the token_limit when capacity cannot hold the input + the least output, holding nothing', async () => {
      const tenant = await h.newTenant();
      const note = await aNote(tenant);
      const limit = noteInputEstimate(PROMPT, note) + MIN_OUTPUT_TOKENS - 1;
      await subscribe(tenant.organizationId, { token_limit: limit, enable_ai: true });
      expect(await h.admission.admit(request(tenant, note.id))).toEqual({ outcome: 'quota_exceeded', tokenLimit: limit });
      expect(await h.reservationCount(tenant.organizationId)).toBe(0);
    });

    it('reserves the input estimate plus what capacity leaves, in the reported period, and returns the note', async () => {
      const tenant = await h.newTenant();
      const note = await aNote(tenant, 'é'.repeat(1_001));
      const estimate = noteInputEstimate(PROMPT, note);
      await subscribe(tenant.organizationId, { token_limit: estimate + 700, enable_ai: true });
      const admitted = await h.admission.admit(request(tenant, note.id, { feature: 'summarize' }));
      expect(admitted).toMatchObject({
        outcome: 'reserved',
        note: { title: 'Groceries', content: note.content },
        reservation: {
          organizationId: tenant.organizationId,
          userId: tenant.userId,
          feature: 'summarize',
          model: 'gpt-test',
          periodStart: new Date('2031-03-05T08:00:00.000Z'),
          allotmentLimit: estimate + 700,
          inputEstimate: estimate,
          allotmentTokens: estimate + 700,
          creditTokens: 0,
          overageTokens: 0,
          maxOutputTokens: 700,
          overageAllowed: false,
          createdAt: NOW,
          expiresAt: new Date(NOW.getTime() + 600_000),
        },
      });
      expect(admitted).toMatchObject({ price: null });
      expect(await h.reservationCount(tenant.organizationId)).toBe(1);
      // A second call finds the first one's hold: only input + 200 would fit, and nothing is left.
      expect(await h.admission.admit(request(tenant, note.id))).toEqual({ outcome: 'quota_exceeded', tokenLimit: estimate + 700 });
    });

    it("returns the model's price with the reservation, for the settlement", async () => {
      const tenant = await h.newTenant();
      const note = await aNote(tenant);
      await subscribe(tenant.organizationId, { token_limit: -1, enable_ai: true });
      expect(await h.admission.admit(request(tenant, note.id, { model: 'gpt-5-mini' }))).toMatchObject({
        outcome: 'reserved',
        reservation: { model: 'gpt-5-mini' },
        price: { model: 'gpt-5-mini', inputUsdPerMillion: 0.25, outputUsdPerMillion: 2 },
      });
    });

    it('reserves in the calendar month without a reported period, and in the rolled-forward period once it ended', async () => {
      const monthly = await h.newTenant();
      const note = await aNote(monthly);
      await subscribe(monthly.organizationId, { token_limit: -1, enable_ai: true }, { currentPeriodStart: null, currentPeriodEnd: null });
      expect(await h.admission.admit(request(monthly, note.id))).toMatchObject({ reservation: { periodStart: calendarMonth(NOW).start } });

      const late = await h.newTenant();
      const lateNote = await aNote(late);
      // The renewal event is late: Jan 5 – Feb 5 rolls to Mar 5 – Apr 5.
      await subscribe(late.organizationId, { token_limit: -1, enable_ai: true }, { currentPeriodStart: new Date('2031-01-05T08:00:00.000Z'), currentPeriodEnd: new Date('2031-02-05T08:00:00.000Z') });
      expect(await h.admission.admit(request(late, lateNote.id))).toMatchObject({ reservation: { periodStart: new Date('2031-03-05T08:00:00.000Z') } });
    });

    it('allows overage only with both switches on: then the bound is the largest and the rest is held as overage', async () => {
      const tenant = await h.newTenant();
      const note = await aNote(tenant);
      await subscribe(tenant.organizationId, { token_limit: 0, enable_ai: true });
      await h.organizations.updateSettings(tenant.organizationId, { overageEnabled: true });
      expect(await h.admission.admit(request(tenant, note.id))).toMatchObject({ outcome: 'quota_exceeded', tokenLimit: 0 });
      await h.systemSettings.update({ aiOverageEnabled: true }, NOW);
      try {
        expect(await h.admission.admit(request(tenant, note.id))).toMatchObject({
          outcome: 'reserved',
          reservation: { maxOutputTokens: MAX_OUTPUT_TOKENS, overageAllowed: true, overageTokens: noteInputEstimate(PROMPT, note) + MAX_OUTPUT_TOKENS },
        });
      } finally {
        await h.systemSettings.update({ aiOverageEnabled: false }, NOW);
      }
    });
  });
}
