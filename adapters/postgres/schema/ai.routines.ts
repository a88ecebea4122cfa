import { Routine } from '@mikro-orm/core';
import { columnsOf } from './columns';

/**
 * The hard cap's three steps as PL/pgSQL functions, declared here once like the tables (MikroORM
 * generates and diffs them with the migrations). Each is one statement for the caller: the
 * organization row's lock is held only inside the database, never across network round trips:
 * calls of one organization queue behind each other for as long as one statement takes, so the
 * lock must never be held while waiting on the network.
 *
 * They apply core's rules (`core/ai/capacity-rules.ts`: `planReservation`, `chargeUsage`) to the
 * state read under the lock; the in-memory adapter applies the TypeScript functions themselves,
 * and the AiCapacity contract suite and the cap's property hold both to the same numbers. The
 * output bounds come in as parameters, so core's constants are the only ones.
 *
 * A volatile function's statements each take a fresh snapshot: what they read after the lock is
 * granted includes everything committed before it. FOR NO KEY UPDATE serializes these steps and
 * plan-quota creates without blocking inserts that merely reference the organization. An
 * unlimited allotment (-1) is a null `v_free` below.
 *
 * Reserving and releasing commit asynchronously (`synchronous_commit` off for their own
 * transaction): the lock is held until commit, so a synchronous commit would make concurrent
 * calls of one organization queue for a disk flush each. That is safe for the cap: a
 * reservation lost in a database crash is lost together with the credits it took (one
 * transaction), its settlement then charges only what is free, and a lost release is redone when
 * the reservation expires. Settling, which records what the customer is billed, keeps the
 * default: once it answers, it is on disk.
 */

const lockOrganization = (id: string) => `perform 1 from organization where id = ${id} for no key update;
      if not found then
        return;
      end if;`;

// Charged to the allotment in the period, plus what the reservations of that period hold.
const COMMITTED = `coalesce((select allotment_tokens from ai_period_usage where organization_id = p_organization_id and period_start = p_period_start), 0)
        + coalesce((select sum(allotment_tokens) from ai_reservation where organization_id = p_organization_id and period_start = p_period_start), 0)`;

// Only this transaction's commit is asynchronous (is_local).
const COMMIT_ASYNCHRONOUSLY = `perform set_config('synchronous_commit', 'off', true);`;

const BALANCE = `coalesce((select balance from ai_credit_account where organization_id = p_organization_id), 0)`;

/** Who calls, for what, and against which allotment: the first parameters of reserve and settle. */
const CALL_PARAMS = {
  p_organization_id: { type: 'integer' },
  p_user_id: { type: 'integer' },
  p_feature: { type: 'varchar' },
  p_model: { type: 'varchar' },
  p_period_start: { type: 'timestamptz' },
  p_allotment_limit: { type: 'bigint' },
} as const;

/** Holds a call's tokens, or returns nothing when it does not fit (`planReservation`). */
export const AiReserve = new Routine({
  name: 'ai_reserve',
  type: 'function',
  language: 'plpgsql',
  deterministic: false,
  params: {
    ...CALL_PARAMS,
    p_input_estimate: { type: 'bigint' },
    p_overage_allowed: { type: 'boolean' },
    p_min_output: { type: 'integer' },
    p_max_output: { type: 'integer' },
    p_created_at: { type: 'timestamptz' },
    p_expires_at: { type: 'timestamptz' },
  },
  returns: { runtimeType: 'object', columnType: 'setof ai_reservation' },
  body: `declare
      v_free bigint;
      v_balance bigint;
      v_output bigint := p_max_output;
      v_total bigint;
      v_allotment bigint;
      v_credit bigint;
    begin
      ${COMMIT_ASYNCHRONOUSLY}
      ${lockOrganization('p_organization_id')}
      v_balance := ${BALANCE};
      if p_allotment_limit <> -1 then
        v_free := greatest(p_allotment_limit - (${COMMITTED}), 0);
      end if;
      if not p_overage_allowed and v_free is not null then
        if v_free + v_balance < p_input_estimate + p_min_output then
          return;
        end if;
        v_output := least(p_max_output, v_free + v_balance - p_input_estimate);
      end if;
      v_total := p_input_estimate + v_output;
      v_allotment := case when v_free is null then v_total else least(v_total, v_free) end;
      v_credit := least(v_total - v_allotment, v_balance);
      if v_credit > 0 then
        update ai_credit_account set balance = balance - v_credit, updated_at = p_created_at where organization_id = p_organization_id;
      end if;
      return query insert into ai_reservation (organization_id, user_id, feature, model, period_start, allotment_limit, input_estimate,
          allotment_tokens, credit_tokens, overage_tokens, max_output_tokens, overage_allowed, created_at, expires_at)
        values (p_organization_id, p_user_id, p_feature, p_model, p_period_start, p_allotment_limit, p_input_estimate,
          v_allotment, v_credit, v_total - v_allotment - v_credit, v_output, p_overage_allowed, p_created_at, p_expires_at)
        returning *;
    end`,
});

/**
 * Replaces a reservation with what the call used (`chargeUsage`) and writes the call's usage
 * record, its credit spending and its overage report; returns the usage record, or nothing when
 * the organization is gone. A reservation already released counts as holding nothing.
 */
export const AiSettle = new Routine({
  name: 'ai_settle',
  type: 'function',
  language: 'plpgsql',
  deterministic: false,
  params: {
    p_reservation_id: { type: 'bigint' },
    ...CALL_PARAMS,
    p_overage_allowed: { type: 'boolean' },
    p_input_tokens: { type: 'bigint' },
    p_output_tokens: { type: 'bigint' },
    p_cost_usd: { type: 'double precision' },
    p_at: { type: 'timestamptz' },
  },
  returns: { runtimeType: 'object', columnType: 'setof llm_usage_log' },
  body: `declare
      v_held_allotment bigint := 0;
      v_held_credit bigint := 0;
      v_free bigint;
      v_balance bigint;
      v_rest bigint := p_input_tokens + p_output_tokens;
      v_allotment bigint;
      v_credit bigint;
      v_overage bigint := 0;
      v_usage llm_usage_log;
    begin
      ${lockOrganization('p_organization_id')}
      delete from ai_reservation where id = p_reservation_id returning allotment_tokens, credit_tokens into v_held_allotment, v_held_credit;
      v_held_allotment := coalesce(v_held_allotment, 0);
      v_held_credit := coalesce(v_held_credit, 0);
      v_balance := ${BALANCE};
      if p_allotment_limit <> -1 then
        -- What is free besides this call's own hold: the others' holds and the charges are committed.
        v_free := greatest(p_allotment_limit - (${COMMITTED}) - v_held_allotment, 0);
      end if;
      v_allotment := case when v_free is null then v_rest else least(v_rest, v_held_allotment + v_free) end;
      v_rest := v_rest - v_allotment;
      v_credit := least(v_rest, v_held_credit + v_balance);
      v_rest := v_rest - v_credit;
      if p_overage_allowed then
        v_overage := v_rest;
      end if;
      if v_held_credit <> v_credit then
        update ai_credit_account set balance = balance + v_held_credit - v_credit, updated_at = p_at where organization_id = p_organization_id;
      end if;
      insert into ai_period_usage (organization_id, period_start, allotment_tokens, credit_tokens, overage_tokens, updated_at)
        values (p_organization_id, p_period_start, v_allotment, v_credit, v_overage, p_at)
        on conflict (organization_id, period_start) do update set
          allotment_tokens = ai_period_usage.allotment_tokens + excluded.allotment_tokens,
          credit_tokens = ai_period_usage.credit_tokens + excluded.credit_tokens,
          overage_tokens = ai_period_usage.overage_tokens + excluded.overage_tokens,
          updated_at = excluded.updated_at;
      -- The user may have been deleted since the call began: the row then belongs to nobody.
      insert into llm_usage_log (organization_id, user_id, feature, model, input_tokens, output_tokens, allotment_tokens,
          credit_tokens, overage_tokens, cost_usd, period_start, created_at)
        values (p_organization_id, (select id from app_user where id = p_user_id), p_feature, p_model, p_input_tokens, p_output_tokens,
          v_allotment, v_credit, v_overage, p_cost_usd, p_period_start, p_at)
        returning * into v_usage;
      if v_credit > 0 then
        insert into ai_credit_transaction (organization_id, kind, tokens, usage_id, created_at)
          values (p_organization_id, 'usage', -v_credit, v_usage.id, p_at);
      end if;
      if v_overage > 0 then
        insert into ai_overage_report (usage_id, organization_id, tokens, occurred_at, status, attempts, next_attempt_at, created_at)
          values (v_usage.id, p_organization_id, v_overage, p_at, 'pending', 0, p_at, p_at);
      end if;
      return next v_usage;
    end`,
});

/** Gives a reservation's holds back; returns the released reservation, or nothing when it was not held. */
export const AiRelease = new Routine({
  name: 'ai_release',
  type: 'function',
  language: 'plpgsql',
  deterministic: false,
  params: {
    p_reservation_id: { type: 'bigint' },
    p_at: { type: 'timestamptz' },
  },
  returns: { runtimeType: 'object', columnType: 'setof ai_reservation' },
  body: `declare
      v_organization_id integer;
      v_released ai_reservation;
    begin
      ${COMMIT_ASYNCHRONOUSLY}
      select organization_id into v_organization_id from ai_reservation where id = p_reservation_id;
      if not found then
        return;
      end if;
      ${lockOrganization('v_organization_id')}
      delete from ai_reservation where id = p_reservation_id returning * into v_released;
      if not found then
        return;
      end if;
      if v_released.credit_tokens > 0 then
        update ai_credit_account set balance = balance + v_released.credit_tokens, updated_at = p_at where organization_id = v_organization_id;
      end if;
      return next v_released;
    end`,
});

/** The reservation's columns, in table order: what `ai_admit` returns after its own. */
export const RESERVATION_COLUMNS = columnsOf('ai_reservation');

/**
 * A copilot call's checks and its reservation in one statement (core's CopilotAdmission port):
 * one read of the note, the subscription, the plan sold as its product, the default plan and both
 * overage switches, judged in the port's order, then `ai_reserve` when every check passed. It
 * returns one row: the outcome (`note_not_found`, `ai_disabled`, `quota_exceeded`, `reserved`),
 * the plan's `token_limit`, the note's title and content, the subscription's reported period, the
 * model's price (null when none is on record; the settlement needs it, so it is read here rather
 * than in a round trip of its own), and the reservation's columns (null unless reserved).
 *
 * The effective plan is `selectEffectivePlan`'s rule (core/plans/effective-plan.ts) on the rows
 * read here: the subscribed plan while the subscription's status is one of
 * `p_counting_statuses` (core's list, comma-separated), else the default plan; its features fill
 * gaps with the catalogue's defaults, passed in. Overage is allowed only while both switches are
 * on and the plan comes from a live subscription (core's `overageAllowed`): usage past capacity is
 * never metered to a customer that nothing invoices. The period is the reported one while `p_now` is
 * before its end, the calendar month (`p_month_start`) without a subscribed plan or a reported
 * period. A reported period that has ended (the renewal event is late) is rolled forward by core
 * (`subscriptionPeriod`), not here: the function then answers `period_rolled` unless the caller
 * passed the rolled period's start as `p_period_start`. The input estimate is
 * `noteInputEstimate`: the prompt's own characters (`p_prompt_characters`) plus the note's.
 */
export const AiAdmit = new Routine({
  name: 'ai_admit',
  type: 'function',
  language: 'plpgsql',
  deterministic: false,
  params: {
    p_organization_id: { type: 'integer' },
    p_user_id: { type: 'integer' },
    p_note_id: { type: 'integer' },
    p_feature: { type: 'varchar' },
    p_model: { type: 'varchar' },
    p_ai_configured: { type: 'boolean' },
    p_prompt_characters: { type: 'integer' },
    p_counting_statuses: { type: 'varchar' },
    p_default_token_limit: { type: 'bigint' },
    p_default_enable_ai: { type: 'boolean' },
    p_now: { type: 'timestamptz' },
    p_month_start: { type: 'timestamptz' },
    p_period_start: { type: 'timestamptz' },
    p_min_output: { type: 'integer' },
    p_max_output: { type: 'integer' },
    p_expires_at: { type: 'timestamptz' },
  },
  returns: { runtimeType: 'object', columnType: 'setof record' },
  body: `declare
      v_note_id integer;
      v_title varchar;
      v_content text;
      v_status varchar;
      v_reported_start timestamptz;
      v_reported_end timestamptz;
      v_product_plan_id integer;
      v_product_features jsonb;
      v_default_plan_id integer;
      v_default_features jsonb;
      v_organization_overage boolean;
      v_system_overage boolean;
      v_input_usd double precision;
      v_output_usd double precision;
      v_features jsonb;
      v_period_start timestamptz;
      v_token_limit bigint;
      v_outcome text;
      v_subscribed boolean;
      v_reservation ai_reservation;
    begin
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
        left join model_price mp on mp.model = p_model;
      if v_note_id is null then
        v_outcome := 'note_not_found';
      elsif not p_ai_configured then
        v_outcome := 'ai_disabled';
      else
        v_subscribed := v_status = any(string_to_array(p_counting_statuses, ',')) and v_product_plan_id is not null;
        if v_subscribed then
          v_features := v_product_features;
          if v_reported_start is null or v_reported_end is null then
            v_period_start := p_month_start;
          elsif p_now < v_reported_end then
            v_period_start := v_reported_start;
          else
            v_period_start := p_period_start;
          end if;
        elsif v_default_plan_id is null then
          raise exception 'No default plan: the plan table lost its invariant';
        else
          v_features := v_default_features;
          v_period_start := p_month_start;
        end if;
        v_token_limit := coalesce((v_features ->> 'token_limit')::bigint, p_default_token_limit);
        if not coalesce((v_features ->> 'enable_ai')::boolean, p_default_enable_ai) then
          v_outcome := 'ai_disabled';
        elsif v_period_start is null then
          v_outcome := 'period_rolled';
        elsif v_system_overage is null then
          -- Seeded by its migration: reserving without it would silently turn overage off.
          raise exception 'No system_settings row: its migration seeds it';
        else
          select * into v_reservation from ai_reserve(p_organization_id, p_user_id, p_feature, p_model, v_period_start, v_token_limit,
            ceil((p_prompt_characters + char_length(v_title) + char_length(v_content)) / 4.0)::integer,
            coalesce(v_organization_overage, false) and v_system_overage and v_subscribed, p_min_output, p_max_output, p_now, p_expires_at);
          v_outcome := case when v_reservation.id is null then 'quota_exceeded' else 'reserved' end;
        end if;
      end if;
      return query select v_outcome, v_token_limit, v_title, v_content, v_reported_start, v_reported_end, v_input_usd, v_output_usd,
        ${RESERVATION_COLUMNS.map((column) => `v_reservation.${column}`).join(', ')};
    end`,
});

export const aiRoutines = [AiReserve, AiSettle, AiRelease, AiAdmit];
