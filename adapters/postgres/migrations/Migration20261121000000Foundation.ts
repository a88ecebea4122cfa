import { Migration } from '@mikro-orm/migrations';

export class Migration20261121000000Foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "system_setting" ("key" varchar(100) not null, "value" jsonb not null, "updated_at" timestamptz not null default now(), constraint "system_setting_pkey" primary key ("key"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "system_setting" cascade;`);
  }
}
