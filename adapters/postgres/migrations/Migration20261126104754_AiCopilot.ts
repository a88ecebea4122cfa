import { Migration } from '@mikro-orm/migrations';

export class Migration20261126104754_AiCopilot extends Migration {

  override name = 'Migration20261126104754_AiCopilot';

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

    this.addSql(`create table "system_settings" ("id" smallint not null, "ai_overage_enabled" boolean not null default false, "updated_at" timestamptz not null, primary key ("id"));`);

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

    this.addSql(`create or replace function "ai_reserve"("p_organization_id" integer, "p_user_id" integer, "p_feature" varchar, "p_model" varchar, "p_period_start" timestamptz, "p_allotment_limit" bigint, "p_input_estimate" integer, "p_overage_allowed" boolean, "p_min_output" integer, "p_max_output" integer, "p_created_at" timestamptz, "p_expires_at" timestamptz) returns setof ai_reservation volatile language plpgsql as \$\$ begin declare
      v_free bigint;       v_balance bigint;       v_output bigint := p_max_output;       v_total bigint;       v_allotment bigint;       v_credit bigint;     begin
      perform set_config('synchronous_commit', 'off', true);       perform 1 from organization where id = p_organization_id for no key update;       if not found then
        return;       end if;       v_balance := coalesce((select balance from ai_credit_account where organization_id = p_organization_id), 0);       if p_allotment_limit <> -1 then
        v_free := greatest(p_allotment_limit - (coalesce((select allotment_tokens from ai_period_usage where organization_id = p_organization_id and period_start = p_period_start), 0)
        + coalesce((select sum(allotment_tokens) from ai_reservation where organization_id = p_organization_id and period_start = p_period_start), 0)), 0);       end if;       if not p_overage_allowed and v_free is not null then
        if v_free + v_balance < p_input_estimate + p_min_output then
          return;         end if;         v_output := least(p_max_output, v_free + v_balance - p_input_estimate);       end if;       v_total := p_input_estimate + v_output;       v_allotment := case when v_free is null then v_total else least(v_total, v_free) end;       v_credit := least(v_total - v_allotment, v_balance);       if v_credit > 0 then
        update ai_credit_account set balance = balance - v_credit, updated_at = p_created_at where organization_id = p_organization_id;       end if;       return query insert into ai_reservation (organization_id, user_id, feature, model, period_start, allotment_limit, input_estimate,
          allotment_tokens, credit_tokens, overage_tokens, max_output_tokens, overage_allowed, created_at, expires_at)
        values (p_organization_id, p_user_id, p_feature, p_model, p_period_start, p_allotment_limit, p_input_estimate,
          v_allotment, v_credit, v_total - v_allotment - v_credit, v_output, p_overage_allowed, p_created_at, p_expires_at)
        returning *;     end; end \$\$;`);

    this.addSql(`create or replace function "ai_settle"("p_reservation_id" integer, "p_organization_id" integer, "p_user_id" integer, "p_feature" varchar, "p_model" varchar, "p_period_start" timestamptz, "p_allotment_limit" bigint, "p_overage_allowed" boolean, "p_input_tokens" integer, "p_output_tokens" integer, "p_cost_usd" double precision, "p_at" timestamptz) returns setof llm_usage_log volatile language plpgsql as \$\$ begin declare
      v_held_allotment bigint := 0;       v_held_credit bigint := 0;       v_free bigint;       v_balance bigint;       v_rest bigint := p_input_tokens + p_output_tokens;       v_allotment bigint;       v_credit bigint;       v_overage bigint := 0;       v_usage llm_usage_log;     begin
      perform 1 from organization where id = p_organization_id for no key update;       if not found then
        return;       end if;       delete from ai_reservation where id = p_reservation_id returning allotment_tokens, credit_tokens into v_held_allotment, v_held_credit;       v_held_allotment := coalesce(v_held_allotment, 0);       v_held_credit := coalesce(v_held_credit, 0);       v_balance := coalesce((select balance from ai_credit_account where organization_id = p_organization_id), 0);       if p_allotment_limit <> -1 then
        -- What is free besides this call's own hold: the others' holds and the charges are committed.
        v_free := greatest(p_allotment_limit - (coalesce((select allotment_tokens from ai_period_usage where organization_id = p_organization_id and period_start = p_period_start), 0)
        + coalesce((select sum(allotment_tokens) from ai_reservation where organization_id = p_organization_id and period_start = p_period_start), 0)) - v_held_allotment, 0);       end if;       v_allotment := case when v_free is null then v_rest else least(v_rest, v_held_allotment + v_free) end;       v_rest := v_rest - v_allotment;       v_credit := least(v_rest, v_held_credit + v_balance);       v_rest := v_rest - v_credit;       if p_overage_allowed then
        v_overage := v_rest;       end if;       if v_held_credit <> v_credit then
        update ai_credit_account set balance = balance + v_held_credit - v_credit, updated_at = p_at where organization_id = p_organization_id;       end if;       insert into ai_period_usage (organization_id, period_start, allotment_tokens, credit_tokens, overage_tokens, updated_at)
        values (p_organization_id, p_period_start, v_allotment, v_credit, v_overage, p_at)
        on conflict (organization_id, period_start) do update set
          allotment_tokens = ai_period_usage.allotment_tokens + excluded.allotment_tokens,
          credit_tokens = ai_period_usage.credit_tokens + excluded.credit_tokens,
          overage_tokens = ai_period_usage.overage_tokens + excluded.overage_tokens,
          updated_at = excluded.updated_at;       -- The user may have been deleted since the call began: the row then belongs to nobody.
      insert into llm_usage_log (organization_id, user_id, feature, model, input_tokens, output_tokens, allotment_tokens,
          credit_tokens, overage_tokens, cost_usd, period_start, created_at)
        values (p_organization_id, (select id from app_user where id = p_user_id), p_feature, p_model, p_input_tokens, p_output_tokens,
          v_allotment, v_credit, v_overage, p_cost_usd, p_period_start, p_at)
        returning * into v_usage;       if v_credit > 0 then
        insert into ai_credit_transaction (organization_id, kind, tokens, usage_id, created_at)
          values (p_organization_id, 'usage', -v_credit, v_usage.id, p_at);       end if;       if v_overage > 0 then
        insert into ai_overage_report (usage_id, organization_id, tokens, occurred_at, status, attempts, next_attempt_at, created_at)
          values (v_usage.id, p_organization_id, v_overage, p_at, 'pending', 0, p_at, p_at);       end if;       return next v_usage;     end; end \$\$;`);

    this.addSql(`create or replace function "ai_release"("p_reservation_id" integer, "p_at" timestamptz) returns setof ai_reservation volatile language plpgsql as \$\$ begin declare
      v_organization_id integer;       v_released ai_reservation;     begin
      perform set_config('synchronous_commit', 'off', true);       select organization_id into v_organization_id from ai_reservation where id = p_reservation_id;       if not found then
        return;       end if;       perform 1 from organization where id = v_organization_id for no key update;       if not found then
        return;       end if;       delete from ai_reservation where id = p_reservation_id returning * into v_released;       if not found then
        return;       end if;       if v_released.credit_tokens > 0 then
        update ai_credit_account set balance = balance + v_released.credit_tokens, updated_at = p_at where organization_id = v_organization_id;       end if;       return next v_released;     end; end \$\$;`);

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

    this.addSql(`drop function if exists "ai_reserve"(integer, integer, varchar, varchar, timestamptz, bigint, integer, boolean, integer, integer, timestamptz, timestamptz);`);

    this.addSql(`drop function if exists "ai_settle"(integer, integer, integer, varchar, varchar, timestamptz, bigint, boolean, integer, integer, double precision, timestamptz);`);

    this.addSql(`drop function if exists "ai_release"(integer, timestamptz);`);

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
