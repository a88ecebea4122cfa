import { Migration } from '@mikro-orm/migrations';

/** The sample feature's table, generated from adapters/postgres/schema/project.entity.ts. */
export class Migration20261121000200Projects extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "project" ("id" serial primary key, "organization_id" int not null, "user_id" int not null, "name" varchar(200) not null, "description" text null, "created_at" timestamptz(3) not null default now(), "updated_at" timestamptz(3) not null default now());`);
    this.addSql(`create index "project_user_id_index" on "project" ("user_id");`);
    this.addSql(`create index "project_organization_id_created_at_id_index" on "project" ("organization_id", "created_at" desc, "id" desc);`);
    this.addSql(`alter table "project" add constraint "project_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "project" add constraint "project_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "project" cascade;`);
  }
}
