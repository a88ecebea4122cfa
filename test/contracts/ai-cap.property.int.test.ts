import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNLIMITED } from '../../core/plans/feature-catalogue';
import type { Database } from '../../adapters/postgres/database';
import { PostgresAiCapacity } from '../../adapters/postgres/postgres-ai-capacity';
import { PostgresCreditLedger } from '../../adapters/postgres/postgres-credit-ledger';
import { PostgresCopilotAdmission } from '../../adapters/postgres/postgres-copilot-admission';
import { PostgresNoteRepository } from '../../adapters/postgres/postgres-note-repository';
import { PostgresOrganizationRepository } from '../../adapters/postgres/postgres-organization-repository';
import { PostgresPlanRepository } from '../../adapters/postgres/postgres-plan-repository';
import { PostgresSubscriptionRepository } from '../../adapters/postgres/postgres-subscription-repository';
import { PostgresSystemSettingsRepository } from '../../adapters/postgres/postgres-system-settings-repository';
import { FakeClock } from '../support/fake-clock';
import { createTestDatabase, requirePostgres } from '../support/postgres';
import { recordingLogger } from '../support/recording-logger';
import { insertOrganization, insertUser } from '../support/sessions';
import { assertCapHolds, type Books, type CapSystem } from './ai-cap.property';

/**
 * The hard cap property on the PostgreSQL server, where the calls of a batch really race on
 * several connections for the organization's lock. Checked red by dropping FOR NO KEY UPDATE, by
 * reading the capacity in the locking statement again (its snapshot predates the lock), and by
 * counting a settling reservation's hold twice.
 */
const NUM_RUNS = Number(process.env.AI_PROPERTY_RUNS ?? 25);

function postgresCapSystem(database: Database): CapSystem {
  const clock = new FakeClock('2026-11-21T10:00:00.000Z');
  const organizations = new PostgresOrganizationRepository(database);
  const notes = new PostgresNoteRepository(database);
  const ledger = new PostgresCreditLedger(database);
  const systemSettings = new PostgresSystemSettingsRepository(database);
  const plans = new PostgresPlanRepository(database);
  const subscriptions = new PostgresSubscriptionRepository(database);
  let purchases = 0;
  return {
    deps: {
      capacity: new PostgresAiCapacity(database),
      admission: new PostgresCopilotAdmission(database),
      clock,
      logger: recordingLogger(),
      settings: { model: 'gpt-5-mini', maxCallMs: 180_000, reservationTtlMs: 600_000 },
    },
    async newCaller() {
      const organizationId = await insertOrganization(database);
      return { organizationId, userId: await insertUser(database, organizationId), role: 'member', sessionId: 0, mfaSatisfied: true, kind: 'user' as const };
    },
    async givePlan(organizationId, tokenLimit) {
      const productId = `prod_property_${organizationId}`;
      const created = await plans.create({ name: `Property ${organizationId}`, description: null, features: { token_limit: tokenLimit, enable_ai: true }, stripeProductId: productId, createdAt: clock.now() });
      expect('plan' in created).toBe(true);
      await subscriptions.applyState(organizationId, {
        customerId: `cus_${organizationId}`,
        subscriptionId: `sub_${organizationId}`,
        status: 'active',
        priceId: null,
        productId,
        currentPeriodStart: null,
        currentPeriodEnd: null,
        cancelAtPeriodEnd: false,
        eventAt: clock.now(),
        updatedAt: clock.now(),
      });
    },
    async setOverage(organizationId, organization, system) {
      await organizations.updateSettings(organizationId, { overageEnabled: organization });
      await systemSettings.update({ aiOverageEnabled: system }, clock.now());
    },
    async buy(organizationId, tokens) {
      purchases += 1;
      expect(await ledger.credit({ organizationId, checkoutSessionId: `cs_property_${purchases}`, packId: 'pack_5m', tokens, at: clock.now() })).toBe(true);
    },
    createNote: async (caller, title, content) => (await notes.createWithinLimit(caller, { title, content, createdAt: clock.now() }, UNLIMITED))!,
    books: (organizationId) => postgresBooks(database, organizationId),
  };
}

async function postgresBooks(database: Database, organizationId: number): Promise<Books> {
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
  return {
    // int8 columns: text from the driver.
    rows: rows.map((r) => ({
      allotment: Number(r.allotment_tokens),
      credits: Number(r.credit_tokens),
      overage: Number(r.overage_tokens),
      input: Number(r.input_tokens),
      output: Number(r.output_tokens),
    })),
    periodAllotment: Number(period?.allotment ?? 0),
    periodOverage: Number(period?.overage ?? 0),
    balance: Number(account?.balance ?? 0),
    reservations: Number(held!.count),
    overageReports: (await database.select<{ tokens: string }>('select tokens from ai_overage_report where organization_id = $1', [organizationId])).map((r) => ({ tokens: Number(r.tokens) })),
  };
}

const postgres = await requirePostgres();

describe.skipIf(!postgres)('the AI hard cap under concurrent calls, on the PostgreSQL server', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => db?.drop());

  it('never charges past token_limit + credits bought, keeps the balance exact and non-negative, logs every streamed call once, leaves no reservation, and bills overage only with both switches on', async () => {
    await assertCapHolds(postgresCapSystem(db.database), NUM_RUNS);
  });
});
