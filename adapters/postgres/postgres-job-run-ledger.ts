import type { JobRunLedger } from '../../core/jobs/job-run-ledger.port';
import type { Database } from './database';

const CLAIM = `insert into job_run (name, period_start, claimed_at) values ($1, $2, $3)
   on conflict (name) do update set period_start = excluded.period_start, claimed_at = excluded.claimed_at
    where job_run.period_start < excluded.period_start
   returning name`;

/**
 * One statement per claim: the upsert only writes when it moves the job's period forward, and
 * PostgreSQL's unique-index arbitration makes concurrent claimers of one period queue on the row,
 * so exactly one gets the row back. No lock is held while the job runs.
 */
export class PostgresJobRunLedger implements JobRunLedger {
  constructor(private readonly database: Database) {}

  async claimPeriod(job: string, periodStart: Date): Promise<boolean> {
    const rows = await this.database.select(CLAIM, [job, periodStart, this.database.now()]);
    return rows.length === 1;
  }
}
