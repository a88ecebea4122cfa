import type { Admission, AdmissionRequest, CopilotAdmission } from '../../core/ai/copilot-admission.port';
import { MAX_OUTPUT_TOKENS, MIN_OUTPUT_TOKENS } from '../../core/ai/capacity-rules';
import { COUNTING_STATUSES } from '../../core/plans/effective-plan';
import { FEATURE_CATALOGUE } from '../../core/plans/feature-catalogue';
import { calendarMonth, subscriptionPeriod } from '../../core/plans/usage-period';
import { count } from './ai-rows';
import type { Database, PreparedSql } from './database';
import { epochMillis } from './timestamp';
import { RESERVATION_COLUMNS } from './schema/ai.routines';

// The column types `ai_admit` returns (a `setof record` function is called with its row's shape).
const RESERVATION_TYPES: Record<(typeof RESERVATION_COLUMNS)[number], string> = {
  id: 'bigint',
  organization_id: 'integer',
  user_id: 'integer',
  feature: 'varchar',
  model: 'varchar',
  period_start: 'timestamptz',
  allotment_limit: 'bigint',
  input_estimate: 'bigint',
  allotment_tokens: 'bigint',
  credit_tokens: 'bigint',
  overage_tokens: 'bigint',
  max_output_tokens: 'bigint',
  overage_allowed: 'boolean',
  created_at: 'timestamptz',
  expires_at: 'timestamptz',
};

/**
 * What core needs of `ai_admit`'s row, in this order: the facts, then the reservation's columns
 * that the request does not already say (its organization, user, feature, model and times are
 * the ones passed in, stored as given).
 */
const ADMITTED = [
  'outcome',
  'token_limit',
  'note_title',
  'note_content',
  epochMillis('reported_start'),
  epochMillis('reported_end'),
  'input_usd_per_million',
  'output_usd_per_million',
  'id',
  epochMillis('period_start'),
  'allotment_limit',
  'input_estimate',
  'allotment_tokens',
  'credit_tokens',
  'overage_tokens',
  'max_output_tokens',
  'overage_allowed',
] as const;

/** `ADMITTED`'s values as `JSON.parse` gives them back. */
type AdmittedTuple = [
  outcome: Admission['outcome'] | 'period_rolled',
  tokenLimit: number | null,
  noteTitle: string | null,
  noteContent: string | null,
  reportedStart: number | null,
  reportedEnd: number | null,
  inputUsdPerMillion: number | null,
  outputUsdPerMillion: number | null,
  id: number | null,
  periodStart: number | null,
  allotmentLimit: number | null,
  inputEstimate: number | null,
  allotmentTokens: number | null,
  creditTokens: number | null,
  overageTokens: number | null,
  maxOutputTokens: number | null,
  overageAllowed: boolean | null,
];

// On every copilot call's path to its first byte: prepared, so PostgreSQL plans it once per
// connection. The row comes back as one JSON array in one text column: pg builds a field
// description, a type parser and a named property for every column of every result (23 here),
// which cost several times what `JSON.parse` does with the same values (docs/benchmarks.md,
// "AI copilot: where the first-byte time goes").
const ADMIT: PreparedSql = {
  name: 'ai_admit_call',
  text: `select json_build_array(${ADMITTED.join(', ')})::text as admitted
     from ai_admit($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
     as (outcome text, token_limit bigint, note_title varchar, note_content text, reported_start timestamptz, reported_end timestamptz,
         input_usd_per_million double precision, output_usd_per_million double precision,
         ${RESERVATION_COLUMNS.map((column) => `${column} ${RESERVATION_TYPES[column]}`).join(', ')})`,
};

const COUNTING = COUNTING_STATUSES.join(',');

/**
 * The copilot's checks and reservation as one call of `ai_admit` (schema/ai.routines.ts): one
 * round trip (the model's price included), and the organization's lock held only inside the database. A subscription whose
 * reported period has ended takes a second call, with the period rolled forward by core.
 */
export class PostgresCopilotAdmission implements CopilotAdmission {
  constructor(private readonly database: Database) {}

  async admit(request: AdmissionRequest): Promise<Admission> {
    let row = await this.call(request, null);
    if (row[0] === 'period_rolled') {
      const rolled = subscriptionPeriod({ start: new Date(row[4]!), end: new Date(row[5]!) }, request.createdAt);
      row = await this.call(request, rolled.start);
    }
    const [outcome, tokenLimit, noteTitle, noteContent, , , inputUsd, outputUsd, id, periodStart, allotmentLimit, inputEstimate, allotment, credit, overage, maxOutput, overageAllowed] = row;
    switch (outcome) {
      case 'note_not_found':
      case 'ai_disabled':
        return { outcome };
      case 'quota_exceeded':
        return { outcome: 'quota_exceeded', tokenLimit: Number(tokenLimit) };
      case 'reserved':
        return {
          outcome: 'reserved',
          note: { title: noteTitle!, content: noteContent! },
          reservation: {
            id: id!,
            organizationId: request.owner.organizationId,
            userId: request.owner.userId,
            feature: request.feature,
            model: request.model,
            periodStart: new Date(periodStart!),
            allotmentLimit: Number(allotmentLimit),
            inputEstimate: count(inputEstimate!),
            allotmentTokens: count(allotment!),
            creditTokens: count(credit!),
            overageTokens: count(overage!),
            maxOutputTokens: count(maxOutput!),
            overageAllowed: overageAllowed!,
            createdAt: request.createdAt,
            expiresAt: request.expiresAt,
          },
          price: inputUsd === null ? null : { model: request.model, inputUsdPerMillion: inputUsd, outputUsdPerMillion: outputUsd! },
        };
      default:
        throw new Error(`ai_admit answered ${outcome} with the rolled period`);
    }
  }

  private async call(request: AdmissionRequest, periodStart: Date | null): Promise<AdmittedTuple> {
    const [row] = await this.database.select<{ admitted: string }>(ADMIT, [
      request.owner.organizationId,
      request.owner.userId,
      request.noteId,
      request.feature,
      request.model,
      request.aiConfigured,
      request.promptCharacters,
      COUNTING,
      FEATURE_CATALOGUE.token_limit.default,
      FEATURE_CATALOGUE.enable_ai.default,
      request.createdAt,
      calendarMonth(request.createdAt).start,
      periodStart,
      MIN_OUTPUT_TOKENS,
      MAX_OUTPUT_TOKENS,
      request.expiresAt,
    ]);
    return JSON.parse(row!.admitted) as AdmittedTuple;
  }
}
