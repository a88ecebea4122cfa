import type { JobRunLedger } from '../../core/jobs/job-run-ledger.port';

/** The once-per-period guard for schedulers that share one process (tests, demos). */
export class InMemoryJobRunLedger implements JobRunLedger {
  private readonly claimed = new Map<string, number>();

  async claimPeriod(job: string, periodStart: Date): Promise<boolean> {
    const last = this.claimed.get(job);
    if (last !== undefined && last >= periodStart.getTime()) return false;
    this.claimed.set(job, periodStart.getTime());
    return true;
  }
}
