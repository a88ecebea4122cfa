import { EntitySchema } from '@mikro-orm/core';

/**
 * One row per recurring job: the latest period some instance claimed. The in-process scheduler
 * claims a period with one conditional upsert, so across instances sharing the database only
 * one runs the job per period (adapters/postgres/postgres-job-run-ledger.ts).
 */
export interface JobRunEntity {
  name: string;
  periodStart: Date;
  claimedAt: Date;
}

export const JobRunSchema = new EntitySchema<JobRunEntity>({
  name: 'JobRun',
  tableName: 'job_run',
  properties: {
    name: { type: 'string', length: 100, primary: true },
    periodStart: { type: 'Date', columnType: 'timestamptz' },
    claimedAt: { type: 'Date', columnType: 'timestamptz' },
  },
});
