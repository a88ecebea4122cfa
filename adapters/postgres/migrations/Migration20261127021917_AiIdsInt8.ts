import { Migration } from '@mikro-orm/migrations';

export class Migration20261127021917_AiIdsInt8 extends Migration {

  override name = 'Migration20261127021917_AiIdsInt8';

  override up(): void | Promise<void> {
    // int4 to int8 rewrites each table under an exclusive lock: on a large usage log, migrate in a
    // quiet hour. A sequence keeps its type when its column's changes: each is widened itself.
    this.addSql(`alter table "ai_overage_report" drop constraint "ai_overage_report_usage_id_foreign";`);

    this.addSql(`alter table "ai_reservation" alter column "id" type bigint;`);
    this.addSql(`alter sequence "ai_reservation_id_seq" as bigint;`);

    this.addSql(`alter table "llm_usage_log" alter column "id" type bigint;`);
    this.addSql(`alter sequence "llm_usage_log_id_seq" as bigint;`);

    this.addSql(`alter table "ai_credit_transaction" alter column "id" type bigint, alter column "usage_id" type bigint;`);
    this.addSql(`alter sequence "ai_credit_transaction_id_seq" as bigint;`);

    this.addSql(`alter table "ai_overage_report" alter column "usage_id" type bigint;`);
    this.addSql(`alter table "ai_overage_report" add constraint "ai_overage_report_usage_id_foreign" foreign key ("usage_id") references "llm_usage_log" ("id") on update cascade on delete cascade;`);

    this.addSql(`drop function if exists "ai_settle"(integer, integer, integer, character varying, character varying, timestamp with time zone, bigint, boolean, bigint, bigint, double precision, timestamp with time zone);`);

    this.addSql(`create or replace function "ai_settle"("p_reservation_id" bigint, "p_organization_id" integer, "p_user_id" integer, "p_feature" varchar, "p_model" varchar, "p_period_start" timestamptz, "p_allotment_limit" bigint, "p_overage_allowed" boolean, "p_input_tokens" bigint, "p_output_tokens" bigint, "p_cost_usd" double precision, "p_at" timestamptz) returns setof llm_usage_log volatile language plpgsql as \$\$ begin declare
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

    this.addSql(`drop function if exists "ai_release"(integer, timestamp with time zone);`);

    this.addSql(`create or replace function "ai_release"("p_reservation_id" bigint, "p_at" timestamptz) returns setof ai_reservation volatile language plpgsql as \$\$ begin declare
      v_organization_id integer;       v_released ai_reservation;     begin
      perform set_config('synchronous_commit', 'off', true);       select organization_id into v_organization_id from ai_reservation where id = p_reservation_id;       if not found then
        return;       end if;       perform 1 from organization where id = v_organization_id for no key update;       if not found then
        return;       end if;       delete from ai_reservation where id = p_reservation_id returning * into v_released;       if not found then
        return;       end if;       if v_released.credit_tokens > 0 then
        update ai_credit_account set balance = balance + v_released.credit_tokens, updated_at = p_at where organization_id = v_organization_id;       end if;       return next v_released;     end; end \$\$;`);
  }

  override down(): void | Promise<void> {
    // Fails, changing nothing, once an id has passed int4: such rows cannot go back.
    this.addSql(`alter table "ai_overage_report" drop constraint "ai_overage_report_usage_id_foreign";`);

    this.addSql(`alter table "ai_overage_report" alter column "usage_id" type int4;`);

    this.addSql(`alter table "ai_credit_transaction" alter column "id" type int4, alter column "usage_id" type int4;`);
    this.addSql(`alter sequence "ai_credit_transaction_id_seq" as int4;`);

    this.addSql(`alter table "llm_usage_log" alter column "id" type int4;`);
    this.addSql(`alter sequence "llm_usage_log_id_seq" as int4;`);

    this.addSql(`alter table "ai_reservation" alter column "id" type int4;`);
    this.addSql(`alter sequence "ai_reservation_id_seq" as int4;`);

    this.addSql(`alter table "ai_overage_report" add constraint "ai_overage_report_usage_id_foreign" foreign key ("usage_id") references "llm_usage_log" ("id") on update cascade on delete cascade;`);

    this.addSql(`drop function if exists "ai_release"(bigint, timestamptz);`);

    this.addSql(`create or replace function "ai_release"("p_reservation_id" integer, "p_at" timestamp with time zone) returns SETOF ai_reservation security invoker volatile language plpgsql as \$\$ begin declare
      v_organization_id integer;       v_released ai_reservation;     begin
      perform set_config('synchronous_commit', 'off', true);       select organization_id into v_organization_id from ai_reservation where id = p_reservation_id;       if not found then
        return;       end if;       perform 1 from organization where id = v_organization_id for no key update;       if not found then
        return;       end if;       delete from ai_reservation where id = p_reservation_id returning * into v_released;       if not found then
        return;       end if;       if v_released.credit_tokens > 0 then
        update ai_credit_account set balance = balance + v_released.credit_tokens, updated_at = p_at where organization_id = v_organization_id;       end if;       return next v_released;     end; end \$\$;`);

    this.addSql(`drop function if exists "ai_settle"(bigint, integer, integer, varchar, varchar, timestamptz, bigint, boolean, bigint, bigint, double precision, timestamptz);`);

    this.addSql(`create or replace function "ai_settle"("p_reservation_id" integer, "p_organization_id" integer, "p_user_id" integer, "p_feature" character varying, "p_model" character varying, "p_period_start" timestamp with time zone, "p_allotment_limit" bigint, "p_overage_allowed" boolean, "p_input_tokens" bigint, "p_output_tokens" bigint, "p_cost_usd" double precision, "p_at" timestamp with time zone) returns SETOF llm_usage_log security invoker volatile language plpgsql as \$\$ begin declare
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
  }

}
