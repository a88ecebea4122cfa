import { Migration } from '@mikro-orm/migrations';

/** The once-per-period guard of the in-process scheduler, generated from schema/jobs.entities.ts. */
export class Migration20261121000300Jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "job_run" ("name" varchar(100) not null, "period_start" timestamptz not null, "claimed_at" timestamptz not null default now(), constraint "job_run_pkey" primary key ("name"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "job_run" cascade;`);
  }
}
