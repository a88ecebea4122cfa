import type { Selectable } from 'kysely';
import type { Admission, AdmissionRequest, CopilotAdmission } from '../../core/ai/copilot-admission.port';
import { MAX_OUTPUT_TOKENS, MIN_OUTPUT_TOKENS } from '../../core/ai/capacity-rules';
import { COUNTING_STATUSES } from '../../core/plans/effective-plan';
import { FEATURE_CATALOGUE } from '../../core/plans/feature-catalogue';
import { calendarMonth, subscriptionPeriod } from '../../core/plans/usage-period';
import { toReservation } from './ai-rows';
import type { Database, PreparedSql } from './database';
import { RESERVATION_COLUMNS } from './schema/ai.routines';
import type { Tables } from './schema/tables';

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

// On every copilot call's path to its first byte: prepared, so PostgreSQL plans it once per connection.
const ADMIT: PreparedSql = {
  name: 'ai_admit_call',
  text: `select * from ai_admit($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
     as (outcome text, token_limit bigint, note_title varchar, note_content text, reported_start timestamptz, reported_end timestamptz,
         input_usd_per_million double precision, output_usd_per_million double precision,
         ${RESERVATION_COLUMNS.map((column) => `${column} ${RESERVATION_TYPES[column]}`).join(', ')})`,
};

const COUNTING = COUNTING_STATUSES.join(',');

type ReservationRow = Selectable<Tables['ai_reservation']>;

/** The facts, then the reservation's columns: all null unless reserved. */
type AdmitRow = { [C in keyof ReservationRow]: ReservationRow[C] | null } & {
  outcome: Admission['outcome'] | 'period_rolled';
  token_limit: string | null;
  note_title: string | null;
  note_content: string | null;
  reported_start: Date | null;
  reported_end: Date | null;
  input_usd_per_million: number | null;
  output_usd_per_million: number | null;
};

/**
 * The copilot's checks and reservation as one call of `ai_admit` (schema/ai.routines.ts): one
 * round trip (the model's price included), and the organization's lock held only inside the database. A subscription whose
 * reported period has ended takes a second call, with the period rolled forward by core.
 */
export class PostgresCopilotAdmission implements CopilotAdmission {
  constructor(private readonly database: Database) {}

  async admit(request: AdmissionRequest): Promise<Admission> {
    let row = await this.call(request, null);
    if (row.outcome === 'period_rolled') {
      const rolled = subscriptionPeriod({ start: new Date(row.reported_start!), end: new Date(row.reported_end!) }, request.createdAt);
      row = await this.call(request, rolled.start);
    }
    switch (row.outcome) {
      case 'note_not_found':
      case 'ai_disabled':
        return { outcome: row.outcome };
      case 'quota_exceeded':
        return { outcome: 'quota_exceeded', tokenLimit: Number(row.token_limit) };
      case 'reserved':
        return {
          outcome: 'reserved',
          note: { title: row.note_title!, content: row.note_content! },
          reservation: toReservation(row as ReservationRow),
          price: row.input_usd_per_million === null ? null : { model: request.model, inputUsdPerMillion: row.input_usd_per_million, outputUsdPerMillion: row.output_usd_per_million! },
        };
      default:
        throw new Error(`ai_admit answered ${row.outcome} with the rolled period`);
    }
  }

  private async call(request: AdmissionRequest, periodStart: Date | null): Promise<AdmitRow> {
    const [row] = await this.database.select<AdmitRow>(ADMIT, [
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
    return row!;
  }
}
