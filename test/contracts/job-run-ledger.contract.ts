import { describe, expect, it } from 'vitest';
import type { JobRunLedger } from '../../core/jobs/job-run-ledger.port';

const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const period = (index: number, everyMs = 60_000) => new Date(T0 + index * everyMs);

/** Every JobRunLedger adapter: one winner per job and period, periods only move forward. */
export function describeJobRunLedgerContract(name: string, setup: () => Promise<JobRunLedger>): void {
  describe(`JobRunLedger contract: ${name}`, () => {
    it('gives a period to the first claimer only, and the next period again', async () => {
      const ledger = await setup();
      await expect(ledger.claimPeriod('prune', period(0))).resolves.toBe(true);
      await expect(ledger.claimPeriod('prune', period(0))).resolves.toBe(false);
      await expect(ledger.claimPeriod('prune', period(1))).resolves.toBe(true);
      await expect(ledger.claimPeriod('prune', period(1))).resolves.toBe(false);
    });

    it('never goes back to an earlier period (a claimer whose clock lags loses)', async () => {
      const ledger = await setup();
      await expect(ledger.claimPeriod('prune', period(5))).resolves.toBe(true);
      await expect(ledger.claimPeriod('prune', period(4))).resolves.toBe(false);
    });

    it('keeps jobs apart', async () => {
      const ledger = await setup();
      await expect(ledger.claimPeriod('prune', period(0))).resolves.toBe(true);
      await expect(ledger.claimPeriod('email', period(0))).resolves.toBe(true);
    });

    it('has exactly one winner among concurrent claimers of one period', async () => {
      const ledger = await setup();
      for (let index = 0; index < 5; index += 1) {
        const results = await Promise.all(Array.from({ length: 8 }, () => ledger.claimPeriod('race', period(index, 1_000))));
        expect(results.filter(Boolean)).toHaveLength(1);
      }
    });
  });
}
