import { Migration } from '@mikro-orm/migrations';

export class Migration20261124081339_PlansNotesQuotas extends Migration {

  override name = 'Migration20261124081339_PlansNotesQuotas';

  override up(): void | Promise<void> {
    this.addSql(`create table "plan" ("id" serial primary key, "name" varchar(100) not null, "description" text null, "features" jsonb not null, "stripe_product_id" varchar(255) null, "is_default" boolean not null, "is_active" boolean not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null);`);
    this.addSql(`alter table "plan" add constraint "plan_stripe_product_id_unique" unique ("stripe_product_id");`);
    this.addSql(`create unique index "plan_name_lower_unique" on "plan" (lower("name"));`);
    this.addSql(`create unique index "plan_one_default" on "plan" ("is_default") where "is_default";`);
    // The plans a new installation starts with (core/plans/seeded-plans.ts says the same); Free is
    // the default. A migration has no Clock: the seed is stamped with the time it runs.
    this.addSql(`insert into "plan" ("name", "description", "features", "stripe_product_id", "is_default", "is_active", "created_at", "updated_at") values
      ('Free', 'For trying things out', '{"max_notes": 10, "max_projects": -1, "token_limit": 0, "enable_ai": false}', null, true, true, now(), now()),
      ('Professional', 'For working teams, with the AI copilot', '{"max_notes": 1000, "max_projects": -1, "token_limit": 2000000, "enable_ai": true}', null, false, true, now(), now()),
      ('Premium', 'Unlimited notes and the largest AI allotment', '{"max_notes": -1, "max_projects": -1, "token_limit": 20000000, "enable_ai": true}', null, false, true, now(), now());`);

    this.addSql(`create table "note" ("id" serial primary key, "organization_id" int not null, "user_id" int not null, "title" varchar(200) not null, "content" text not null, "created_at" timestamptz(3) not null, "updated_at" timestamptz(3) not null);`);
    this.addSql(`create index "note_user_id_index" on "note" ("user_id");`);
    this.addSql(`create index "note_organization_id_user_id_created_at_id_index" on "note" ("organization_id", "user_id", "created_at" desc, "id" desc);`);

    this.addSql(`alter table "subscription" add "product_id" varchar(255) null, add "current_period_start" timestamptz null, add "cancel_at_period_end" boolean not null default false;`);
    this.addSql(`alter table "subscription" alter column "status" drop not null;`);
    this.addSql(`alter table "subscription" alter column "event_at" drop not null;`);

    this.addSql(`alter table "plan" add constraint "plan_default_is_active" check ("is_active" or not "is_default");`);

    this.addSql(`alter table "note" add constraint "note_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "note" add constraint "note_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`);

    this.addSql(`create or replace function "note_create_within_limit"("p_organization_id" integer, "p_user_id" integer, "p_title" varchar, "p_content" text, "p_created_at" timestamptz, "p_limit" integer) returns setof note volatile language plpgsql as \$\$ begin
      if p_limit <> -1 then
        perform 1 from organization where id = p_organization_id for no key update;         if (select count(*) from note where organization_id = p_organization_id) >= p_limit then
          return;         end if;       end if;       return query insert into note (organization_id, user_id, title, content, created_at, updated_at)
        values (p_organization_id, p_user_id, p_title, p_content, p_created_at, p_created_at) returning *;     end \$\$;`);

    this.addSql(`create or replace function "project_create_within_limit"("p_organization_id" integer, "p_user_id" integer, "p_name" varchar, "p_description" text, "p_created_at" timestamptz, "p_limit" integer) returns setof project volatile language plpgsql as \$\$ begin
      if p_limit <> -1 then
        perform 1 from organization where id = p_organization_id for no key update;         if (select count(*) from project where organization_id = p_organization_id) >= p_limit then
          return;         end if;       end if;       return query insert into project (organization_id, user_id, name, description, created_at, updated_at)
        values (p_organization_id, p_user_id, p_name, p_description, p_created_at, p_created_at) returning *;     end \$\$;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "plan" cascade;`);
    this.addSql(`drop table if exists "note" cascade;`);

    // The previous schema cannot hold a customer without a subscription event.
    this.addSql(`delete from "subscription" where "status" is null or "event_at" is null;`);
    this.addSql(`alter table "subscription" drop column "product_id", drop column "current_period_start", drop column "cancel_at_period_end";`);
    this.addSql(`alter table "subscription" alter column "status" set not null;`);
    this.addSql(`alter table "subscription" alter column "event_at" set not null;`);

    this.addSql(`drop function if exists "note_create_within_limit"(integer, integer, varchar, text, timestamptz, integer);`);

    this.addSql(`drop function if exists "project_create_within_limit"(integer, integer, varchar, text, timestamptz, integer);`);
  }

}
