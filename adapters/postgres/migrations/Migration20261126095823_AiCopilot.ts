import { Migration } from '@mikro-orm/migrations';

export class Migration20261126095823_AiCopilot extends Migration {

  override name = 'Migration20261126095823_AiCopilot';

  override up(): void | Promise<void> {
    this.addSql(`create table "model_price" ("model" varchar(100) not null, "input_usd_per_million" double precision not null, "output_usd_per_million" double precision not null, "updated_at" timestamptz not null, primary key ("model"));`);

    this.addSql(`create table "ai_reservation" ("id" serial primary key, "organization_id" int not null, "user_id" int not null, "feature" varchar(16) not null, "model" varchar(100) not null, "period_start" timestamptz not null, "allotment_limit" bigint not null, "input_estimate" int not null, "allotment_tokens" int not null, "credit_tokens" int not null, "overage_tokens" int not null, "max_output_tokens" int not null, "overage_allowed" boolean not null, "created_at" timestamptz not null, "expires_at" timestamptz not null);`);
    this.addSql(`create index "ai_reservation_organization_id_index" on "ai_reservation" ("organization_id");`);
    this.addSql(`create index "ai_reservation_expires_at_index" on "ai_reservation" ("expires_at");`);

    this.addSql(`create table "ai_period_usage" ("organization_id" int not null, "period_start" timestamptz not null, "allotment_tokens" bigint not null, "credit_tokens" bigint not null, "overage_tokens" bigint not null, "updated_at" timestamptz not null, primary key ("organization_id", "period_start"));`);

    this.addSql(`create table "ai_credit_transaction" ("id" serial primary key, "organization_id" int not null, "kind" varchar(16) not null, "tokens" bigint not null, "checkout_session_id" varchar(255) null, "pack_id" varchar(100) null, "usage_id" int null, "created_at" timestamptz not null);`);
    this.addSql(`create index "ai_credit_transaction_organization_id_index" on "ai_credit_transaction" ("organization_id");`);
    this.addSql(`alter table "ai_credit_transaction" add constraint "ai_credit_transaction_checkout_session_id_unique" unique ("checkout_session_id");`);

    this.addSql(`create table "ai_credit_account" ("organization_id" int not null, "balance" bigint not null, "updated_at" timestamptz not null, primary key ("organization_id"));`);

    this.addSql(`create table "system_settings" ("id" smallint primary key, "ai_overage_enabled" boolean not null default false, "updated_at" timestamptz not null);`);

    this.addSql(`create table "llm_usage_log" ("id" serial primary key, "organization_id" int not null, "user_id" int null, "feature" varchar(16) not null, "model" varchar(100) not null, "input_tokens" int not null, "output_tokens" int not null, "allotment_tokens" int not null, "credit_tokens" int not null, "overage_tokens" int not null, "cost_usd" double precision null, "period_start" timestamptz not null, "created_at" timestamptz(3) not null);`);
    this.addSql(`create index "llm_usage_log_organization_id_created_at_id_index" on "llm_usage_log" ("organization_id", "created_at" desc, "id" desc);`);
    this.addSql(`create index "llm_usage_log_organization_id_user_id_created_at_id_index" on "llm_usage_log" ("organization_id", "user_id", "created_at" desc, "id" desc);`);

    this.addSql(`create table "ai_overage_report" ("usage_id" int not null, "organization_id" int not null, "tokens" int not null, "occurred_at" timestamptz not null, "status" varchar(16) not null, "attempts" int not null default 0, "next_attempt_at" timestamptz not null, "last_error" text null, "sent_at" timestamptz null, "created_at" timestamptz not null, primary key ("usage_id"));`);
    this.addSql(`create index "ai_overage_report_organization_id_index" on "ai_overage_report" ("organization_id");`);
    this.addSql(`create index "ai_overage_report_status_next_attempt_at_index" on "ai_overage_report" ("status", "next_attempt_at");`);

    this.addSql(`alter table "ai_reservation" add constraint "ai_reservation_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "ai_period_usage" add constraint "ai_period_usage_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "ai_credit_transaction" add constraint "ai_credit_transaction_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "ai_credit_account" add constraint "ai_credit_account_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ai_credit_account" add constraint "ai_credit_account_balance_not_negative" check ("balance" >= 0);`);

    this.addSql(`alter table "system_settings" add constraint "system_settings_one_row" check ("id" = 1);`);

    this.addSql(`alter table "llm_usage_log" add constraint "llm_usage_log_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "llm_usage_log" add constraint "llm_usage_log_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "ai_overage_report" add constraint "ai_overage_report_usage_id_foreign" foreign key ("usage_id") references "llm_usage_log" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "ai_overage_report" add constraint "ai_overage_report_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`);

    // Seeds, added by hand to the generated migration. A migration has no Clock: stamped with the
    // time it runs. Prices are OpenAI's list prices in USD per million tokens (input, output).
    this.addSql(`insert into "model_price" ("model", "input_usd_per_million", "output_usd_per_million", "updated_at") values
      ('gpt-5', 1.25, 10, now()), ('gpt-5-mini', 0.25, 2, now()), ('gpt-5-nano', 0.05, 0.4, now()),
      ('gpt-4.1', 2, 8, now()), ('gpt-4.1-mini', 0.4, 1.6, now()), ('gpt-4.1-nano', 0.1, 0.4, now());`);
    // Every system switch starts off.
    this.addSql(`insert into "system_settings" ("id", "ai_overage_enabled", "updated_at") values (1, false, now());`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "ai_overage_report" drop constraint "ai_overage_report_usage_id_foreign";`);

    this.addSql(`drop table if exists "model_price" cascade;`);
    this.addSql(`drop table if exists "ai_reservation" cascade;`);
    this.addSql(`drop table if exists "ai_period_usage" cascade;`);
    this.addSql(`drop table if exists "ai_credit_transaction" cascade;`);
    this.addSql(`drop table if exists "ai_credit_account" cascade;`);
    this.addSql(`drop table if exists "system_settings" cascade;`);
    this.addSql(`drop table if exists "llm_usage_log" cascade;`);
    this.addSql(`drop table if exists "ai_overage_report" cascade;`);

    this.addSql(`drop function if exists "note_create_within_limit"(integer, integer, varchar, text, timestamptz, integer);`);

    this.addSql(`create or replace function "note_create_within_limit"("p_organization_id" integer, "p_user_id" integer, "p_title" character varying, "p_content" text, "p_created_at" timestamp with time zone, "p_limit" integer) returns SETOF note security invoker volatile language plpgsql as \$\$ begin if p_limit <> -1 then
        perform 1 from organization where id = p_organization_id for no key update;         if (select count(*) from note where organization_id = p_organization_id) >= p_limit then
          return;         end if;       end if;       return query insert into note (organization_id, user_id, title, content, created_at, updated_at)
        values (p_organization_id, p_user_id, p_title, p_content, p_created_at, p_created_at) returning *; end \$\$;`);

    this.addSql(`drop function if exists "project_create_within_limit"(integer, integer, varchar, text, timestamptz, integer);`);

    this.addSql(`create or replace function "project_create_within_limit"("p_organization_id" integer, "p_user_id" integer, "p_name" character varying, "p_description" text, "p_created_at" timestamp with time zone, "p_limit" integer) returns SETOF project security invoker volatile language plpgsql as \$\$ begin if p_limit <> -1 then
        perform 1 from organization where id = p_organization_id for no key update;         if (select count(*) from project where organization_id = p_organization_id) >= p_limit then
          return;         end if;       end if;       return query insert into project (organization_id, user_id, name, description, created_at, updated_at)
        values (p_organization_id, p_user_id, p_name, p_description, p_created_at, p_created_at) returning *; end \$\$;`);
  }

}
