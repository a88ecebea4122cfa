import { Migration } from '@mikro-orm/migrations';

export class Migration20261126204914_InvitationByApiKey extends Migration {

  override name = 'Migration20261126204914_InvitationByApiKey';

  override up(): void | Promise<void> {
    this.addSql(`alter table "invitation" add "invited_by_api_key_id" int null;`);
    this.addSql(`alter table "invitation" add constraint "invitation_invited_by_api_key_id_foreign" foreign key ("invited_by_api_key_id") references "api_key" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "invitation_invited_by_api_key_id_index" on "invitation" ("invited_by_api_key_id");`);
    this.addSql(`alter table "invitation" add constraint "invitation_one_issuer" check ("invited_by_user_id" is null or "invited_by_api_key_id" is null);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "invitation" drop constraint "invitation_invited_by_api_key_id_foreign";`);

    this.addSql(`drop index "invitation_invited_by_api_key_id_index";`);
    this.addSql(`alter table "invitation" drop constraint "invitation_one_issuer";`);
    this.addSql(`alter table "invitation" drop column "invited_by_api_key_id";`);

    this.addSql(`drop function if exists "ai_admit"(integer, integer, integer, varchar, varchar, boolean, integer, varchar, bigint, boolean, timestamptz, timestamptz, timestamptz, integer, integer, timestamptz);`);

    this.addSql(`create or replace function "ai_admit"("p_organization_id" integer, "p_user_id" integer, "p_note_id" integer, "p_feature" character varying, "p_model" character varying, "p_ai_configured" boolean, "p_prompt_characters" integer, "p_counting_statuses" character varying, "p_default_token_limit" bigint, "p_default_enable_ai" boolean, "p_now" timestamp with time zone, "p_month_start" timestamp with time zone, "p_period_start" timestamp with time zone, "p_min_output" integer, "p_max_output" integer, "p_expires_at" timestamp with time zone) returns SETOF record security invoker volatile language plpgsql as \$\$ begin declare
      v_note_id integer;       v_title varchar;       v_content text;       v_status varchar;       v_reported_start timestamptz;       v_reported_end timestamptz;       v_product_plan_id integer;       v_product_features jsonb;       v_default_plan_id integer;       v_default_features jsonb;       v_organization_overage boolean;       v_system_overage boolean;       v_input_usd double precision;       v_output_usd double precision;       v_features jsonb;       v_period_start timestamptz;       v_token_limit bigint;       v_outcome text;       v_subscribed boolean;       v_reservation ai_reservation;     begin
      select n.id, n.title, n.content, s.status, s.current_period_start, s.current_period_end, pp.id, pp.features, dp.id, dp.features,
          o.overage_enabled, ss.ai_overage_enabled, mp.input_usd_per_million, mp.output_usd_per_million
        into v_note_id, v_title, v_content, v_status, v_reported_start, v_reported_end, v_product_plan_id, v_product_features,
          v_default_plan_id, v_default_features, v_organization_overage, v_system_overage, v_input_usd, v_output_usd
        from (values (1)) as one (x)
        left join note n on n.organization_id = p_organization_id and n.user_id = p_user_id and n.id = p_note_id
        left join subscription s on s.organization_id = p_organization_id
        left join plan pp on pp.stripe_product_id = s.product_id
        left join plan dp on dp.is_default = true
        left join organization o on o.id = p_organization_id
        left join system_settings ss on ss.id = 1
        left join model_price mp on mp.model = p_model;       if v_note_id is null then
        v_outcome := 'note_not_found';       elsif not p_ai_configured then
        v_outcome := 'ai_disabled';       else
        v_subscribed := v_status = any(string_to_array(p_counting_statuses, ',')) and v_product_plan_id is not null;         if v_subscribed then
          v_features := v_product_features;           if v_reported_start is null or v_reported_end is null then
            v_period_start := p_month_start;           elsif p_now < v_reported_end then
            v_period_start := v_reported_start;           else
            v_period_start := p_period_start;           end if;         elsif v_default_plan_id is null then
          raise exception 'No default plan: the plan table lost its invariant';         else
          v_features := v_default_features;           v_period_start := p_month_start;         end if;         v_token_limit := coalesce((v_features ->> 'token_limit')::bigint, p_default_token_limit);         if not coalesce((v_features ->> 'enable_ai')::boolean, p_default_enable_ai) then
          v_outcome := 'ai_disabled';         elsif v_period_start is null then
          v_outcome := 'period_rolled';         elsif v_system_overage is null then
          -- Seeded by its migration: reserving without it would silently turn overage off.
          raise exception 'No system_settings row: its migration seeds it';         else
          select * into v_reservation from ai_reserve(p_organization_id, p_user_id, p_feature, p_model, v_period_start, v_token_limit,
            ceil((p_prompt_characters + char_length(v_title) + char_length(v_content)) / 4.0)::integer,
            coalesce(v_organization_overage, false) and v_system_overage and v_subscribed, p_min_output, p_max_output, p_now, p_expires_at);           v_outcome := case when v_reservation.id is null then 'quota_exceeded' else 'reserved' end;         end if;       end if;       return query select v_outcome, v_token_limit, v_title, v_content, v_reported_start, v_reported_end, v_input_usd, v_output_usd,
        v_reservation.id, v_reservation.organization_id, v_reservation.user_id, v_reservation.feature, v_reservation.model, v_reservation.period_start, v_reservation.allotment_limit, v_reservation.input_estimate, v_reservation.allotment_tokens, v_reservation.credit_tokens, v_reservation.overage_tokens, v_reservation.max_output_tokens, v_reservation.overage_allowed, v_reservation.created_at, v_reservation.expires_at;     end; end \$\$;`);

    this.addSql(`drop function if exists "ai_release"(integer, timestamptz);`);

    this.addSql(`create or replace function "ai_release"("p_reservation_id" integer, "p_at" timestamp with time zone) returns SETOF ai_reservation security invoker volatile language plpgsql as \$\$ begin declare
      v_organization_id integer;       v_released ai_reservation;     begin
      perform set_config('synchronous_commit', 'off', true);       select organization_id into v_organization_id from ai_reservation where id = p_reservation_id;       if not found then
        return;       end if;       perform 1 from organization where id = v_organization_id for no key update;       if not found then
        return;       end if;       delete from ai_reservation where id = p_reservation_id returning * into v_released;       if not found then
        return;       end if;       if v_released.credit_tokens > 0 then
        update ai_credit_account set balance = balance + v_released.credit_tokens, updated_at = p_at where organization_id = v_organization_id;       end if;       return next v_released;     end; end \$\$;`);

    this.addSql(`drop function if exists "ai_reserve"(integer, integer, varchar, varchar, timestamptz, bigint, bigint, boolean, integer, integer, timestamptz, timestamptz);`);

    this.addSql(`create or replace function "ai_reserve"("p_organization_id" integer, "p_user_id" integer, "p_feature" character varying, "p_model" character varying, "p_period_start" timestamp with time zone, "p_allotment_limit" bigint, "p_input_estimate" bigint, "p_overage_allowed" boolean, "p_min_output" integer, "p_max_output" integer, "p_created_at" timestamp with time zone, "p_expires_at" timestamp with time zone) returns SETOF ai_reservation security invoker volatile language plpgsql as \$\$ begin declare
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

    this.addSql(`drop function if exists "ai_settle"(integer, integer, integer, varchar, varchar, timestamptz, bigint, boolean, bigint, bigint, double precision, timestamptz);`);

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
