import { describe, it } from 'vitest';
import { UNLIMITED } from '../../core/plans/feature-catalogue';
import { aiHarness } from '../builders/ai';
import { assertCapHolds, type CapSystem } from './ai-cap.property';

/**
 * The hard cap property on the in-memory adapters (the in-memory wiring and every core unit test
 * rely on them). Their store runs one transaction at a time, so this run checks the adapters'
 * arithmetic under interleaved calls rather than a lock; the PostgreSQL run checks the lock.
 */
const NUM_RUNS = Number(process.env.AI_PROPERTY_RUNS ?? 50);

function inMemoryCapSystem(): CapSystem {
  const h = aiHarness();
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  return {
    deps: h.aiDeps,
    newCaller: () => h.aCaller('member'),
    givePlan: (organizationId, tokenLimit) => h.givePlan(organizationId, tokenLimit),
    setOverage: (organizationId, organization, system) => h.setOverage(organizationId, organization, system),
    buy: (organizationId, tokens) => h.giveCredits(organizationId, tokens),
    createNote: async (caller, title, content) => (await h.notes.createWithinLimit(caller, { title, content, createdAt: h.clock.now() }, UNLIMITED))!,
    async books(organizationId) {
      const mine = <Row extends { organization_id: number }>(rows: Iterable<Row>) => [...rows].filter((row) => row.organization_id === organizationId);
      const periods = mine(h.tables.periodUsage.values());
      return {
        rows: mine(h.tables.usageLog.values()).map((r) => ({ allotment: r.allotment_tokens, credits: r.credit_tokens, overage: r.overage_tokens, input: r.input_tokens, output: r.output_tokens })),
        periodAllotment: sum(periods.map((row) => Number(row.allotment_tokens))),
        periodOverage: sum(periods.map((row) => Number(row.overage_tokens))),
        balance: await h.balance(organizationId),
        reservations: mine(h.tables.reservations.values()).length,
        overageReports: mine(h.tables.overageReports.values()),
      };
    },
  };
}

describe('the AI hard cap under concurrent calls, on the in-memory adapters', () => {
  it('never charges past token_limit + credits bought, keeps the balance exact and non-negative, logs every streamed call once, leaves no reservation, and bills overage only with both switches on', async () => {
    await assertCapHolds(inMemoryCapSystem(), NUM_RUNS);
  });
});
