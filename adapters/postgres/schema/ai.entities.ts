import { defineEntity, p } from '@mikro-orm/core';
import type { OverageReportStatus } from '../../../core/ai/overage-report.port';
import type { CopilotFeature } from '../../../core/ai/usage-record';
import { OrganizationSchema, UserSchema } from './accounts.entities';

/**
 * The AI copilot's tables. Every token count is int8: totals add up over an organization's life,
 * and a single call's counts come from a provider's report (clamped in core, but a column is no
 * place to find out that a bound was wrong). The ids of the tables that take rows per call
 * (reservations, usage records, credit transactions) are int8 as well, like those of the other
 * per-event tables (sessions, audit events, emails): a sequence spends a value on every call,
 * and 2^31 is 20 calls a second for three and a half years.
 */

/** USD per million tokens per model; seeded by the migration, editable by an operator. */
export const ModelPriceSchema = defineEntity({
  name: 'ModelPrice',
  tableName: 'model_price',
  properties: {
    model: p.string().length(100).primary(),
    inputUsdPerMillion: p.double(),
    outputUsdPerMillion: p.double(),
    updatedAt: p.datetime().columnType('timestamptz'),
  },
});

/** The deployment's switches: one row (id 1), seeded by the migration. */
export const SystemSettingsSchema = defineEntity({
  name: 'SystemSettings',
  tableName: 'system_settings',
  checks: [{ name: 'system_settings_one_row', expression: '"id" = 1' }],
  properties: {
    id: p.smallint().primary().autoincrement(false),
    aiOverageEnabled: p.boolean().default(false),
    updatedAt: p.datetime().columnType('timestamptz'),
  },
});

/**
 * Credit tokens an organization can spend now. Calls in flight have taken theirs out already, so
 * the check keeps the hard cap's last line: a balance never goes below zero.
 */
export const AiCreditAccountSchema = defineEntity({
  name: 'AiCreditAccount',
  tableName: 'ai_credit_account',
  checks: [{ name: 'ai_credit_account_balance_not_negative', expression: '"balance" >= 0' }],
  properties: {
    organization: p.manyToOne(OrganizationSchema).primary().updateRule('cascade').deleteRule('cascade'),
    balance: p.bigint(),
    updatedAt: p.datetime().columnType('timestamptz'),
  },
});

/**
 * The credit ledger: a pack bought (positive, with its checkout session, unique so a pack is
 * credited once) or credits a call spent (negative, with its usage record). Balance plus what
 * calls in flight hold is the sum of an organization's transactions.
 */
export const AiCreditTransactionSchema = defineEntity({
  name: 'AiCreditTransaction',
  tableName: 'ai_credit_transaction',
  properties: {
    id: p.bigint().primary().autoincrement(),
    organization: p.manyToOne(OrganizationSchema).updateRule('cascade').deleteRule('cascade').index(),
    kind: p.string().$type<'purchase' | 'usage'>().length(16),
    tokens: p.bigint(),
    checkoutSessionId: p.string().length(255).nullable().unique('ai_credit_transaction_checkout_session_id_unique'),
    packId: p.string().length(100).nullable(),
    usageId: p.bigint().nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
  },
});

/**
 * Tokens held by a call in flight, per bucket. Not tied to the user by a foreign key: deleting a
 * user mid-call must not drop the credits the call holds. `expires_at` serves the job that
 * releases reservations left by a process that died.
 */
export const AiReservationSchema = defineEntity({
  name: 'AiReservation',
  tableName: 'ai_reservation',
  properties: {
    id: p.bigint().primary().autoincrement(),
    organization: p.manyToOne(OrganizationSchema).updateRule('cascade').deleteRule('cascade').index(),
    userId: p.integer(),
    feature: p.string().$type<CopilotFeature>().length(16),
    model: p.string().length(100),
    periodStart: p.datetime().columnType('timestamptz'),
    // The plan's token_limit when reserved: settling charges against the same allotment.
    allotmentLimit: p.bigint(),
    inputEstimate: p.bigint(),
    allotmentTokens: p.bigint(),
    creditTokens: p.bigint(),
    overageTokens: p.bigint(),
    maxOutputTokens: p.bigint(),
    overageAllowed: p.boolean(),
    createdAt: p.datetime().columnType('timestamptz'),
    expiresAt: p.datetime().columnType('timestamptz').index(),
  },
});

/** What each usage period charged, per bucket: the allotment left is `token_limit` minus this. */
export const AiPeriodUsageSchema = defineEntity({
  name: 'AiPeriodUsage',
  tableName: 'ai_period_usage',
  properties: {
    organization: p.manyToOne(OrganizationSchema).primary().updateRule('cascade').deleteRule('cascade'),
    periodStart: p.datetime().columnType('timestamptz').primary(),
    allotmentTokens: p.bigint(),
    creditTokens: p.bigint(),
    overageTokens: p.bigint(),
    updatedAt: p.datetime().columnType('timestamptz'),
  },
});

/**
 * One row per settled copilot call. The user's rows outlive the user (set null): the
 * organization's usage history and bill do. Milliseconds only, for the keyset cursor.
 */
export const LlmUsageLogSchema = defineEntity({
  name: 'LlmUsageLog',
  tableName: 'llm_usage_log',
  indexes: [
    {
      name: 'llm_usage_log_organization_id_created_at_id_index',
      expression:
        'create index "llm_usage_log_organization_id_created_at_id_index" on "llm_usage_log" ("organization_id", "created_at" desc, "id" desc)',
    },
    {
      name: 'llm_usage_log_organization_id_user_id_created_at_id_index',
      expression:
        'create index "llm_usage_log_organization_id_user_id_created_at_id_index" on "llm_usage_log" ("organization_id", "user_id", "created_at" desc, "id" desc)',
    },
  ],
  properties: {
    id: p.bigint().primary().autoincrement(),
    organization: p.manyToOne(OrganizationSchema).updateRule('cascade').deleteRule('cascade').index(false),
    user: p.manyToOne(UserSchema).updateRule('cascade').deleteRule('set null').nullable().index(false),
    feature: p.string().$type<CopilotFeature>().length(16),
    model: p.string().length(100),
    inputTokens: p.bigint(),
    outputTokens: p.bigint(),
    allotmentTokens: p.bigint(),
    creditTokens: p.bigint(),
    overageTokens: p.bigint(),
    costUsd: p.double().nullable(),
    periodStart: p.datetime().columnType('timestamptz'),
    createdAt: p.datetime().columnType('timestamptz(3)'),
  },
});

/**
 * Overage waiting to be reported to the billing provider as a meter event, one per usage record
 * that charged overage, written in the call's transaction; delivered like email (claims with a
 * lease, retries with backoff, dead-letter).
 */
export const AiOverageReportSchema = defineEntity({
  name: 'AiOverageReport',
  tableName: 'ai_overage_report',
  indexes: [{ name: 'ai_overage_report_status_next_attempt_at_index', properties: ['status', 'nextAttemptAt'] }],
  properties: {
    usage: p.manyToOne(LlmUsageLogSchema).primary().updateRule('cascade').deleteRule('cascade'),
    organization: p.manyToOne(OrganizationSchema).updateRule('cascade').deleteRule('cascade').index(),
    tokens: p.bigint(),
    occurredAt: p.datetime().columnType('timestamptz'),
    status: p.string().$type<OverageReportStatus>().length(16),
    attempts: p.integer().default(0),
    nextAttemptAt: p.datetime().columnType('timestamptz'),
    lastError: p.text().nullable(),
    sentAt: p.datetime().columnType('timestamptz').nullable(),
    createdAt: p.datetime().columnType('timestamptz'),
  },
});

export const aiEntities = [
  ModelPriceSchema,
  SystemSettingsSchema,
  AiCreditAccountSchema,
  AiCreditTransactionSchema,
  AiReservationSchema,
  AiPeriodUsageSchema,
  LlmUsageLogSchema,
  AiOverageReportSchema,
];
