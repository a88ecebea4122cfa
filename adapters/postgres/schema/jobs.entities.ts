import { defineEntity, p } from '@mikro-orm/core';

/**
 * One row per recurring job: the latest period some instance claimed. The in-process scheduler
 * claims a period with one conditional upsert, so across instances sharing the database only
 * one runs the job per period (adapters/postgres/postgres-job-run-ledger.ts).
 */
export const JobRunSchema = defineEntity({
  name: 'JobRun',
  tableName: 'job_run',
  properties: {
    name: p.string().length(100).primary(),
    periodStart: p.datetime().columnType('timestamptz'),
    claimedAt: p.datetime().columnType('timestamptz'),
  },
});
