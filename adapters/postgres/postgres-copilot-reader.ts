import type { CopilotReader, CopilotReads } from '../../core/ai/copilot-reads.port';
import type { NoteOwner } from '../../core/notes/note-repository.port';
import type { Database, PreparedSql } from './database';
import { NOTE_COLUMNS, toNote } from './postgres-note-repository';
import { PLAN_COLUMNS, toPlan } from './postgres-plan-repository';
import { SUBSCRIPTION_COLUMNS, toSubscription } from './postgres-subscription-repository';

/** Each table's named columns, read as `<prefix><column>` so the joined tables' columns stay apart. */
const prefixed = (alias: string, prefix: string, columns: readonly string[]) => columns.map((c) => `${alias}.${c} as ${prefix}${c}`).join(', ');

// Everything the copilot checks before its first byte, in one round trip: the first byte of 50
// calls started together waited on five reads each through a pool of 10 connections. The
// reads are the repositories' own (note by owner and id, subscription by organization, the plan
// sold as its product, the default plan, both overage switches); the left joins on a one-row
// `values` keep each absent row absent. One statement also reads one snapshot, where the five
// reads each had their own. Prepared, with named columns (a prepared `select *` fails once a
// migration changes a table under a running app).
const READ: PreparedSql = {
  name: 'copilot_reads',
  text: `select ${prefixed('n', 'n_', NOTE_COLUMNS)}, ${prefixed('s', 's_', SUBSCRIPTION_COLUMNS)},
          ${prefixed('pp', 'pp_', PLAN_COLUMNS)}, ${prefixed('dp', 'dp_', PLAN_COLUMNS)},
          o.overage_enabled as organization_overage, ss.ai_overage_enabled as system_overage
     from (values (1)) as one (x)
     left join note n on n.organization_id = $1 and n.user_id = $2 and n.id = $3
     left join subscription s on s.organization_id = $1
     left join plan pp on pp.stripe_product_id = s.product_id
     left join plan dp on dp.is_default = true
     left join organization o on o.id = $1
     left join system_settings ss on ss.id = 1`,
};

type Row = Record<string, unknown>;

/** The columns read with `prefix`, unprefixed; undefined when the joined row is absent (its key column null). */
function part<T>(row: Row, prefix: string, columns: readonly string[], key: string): T | undefined {
  if (row[`${prefix}${key}`] === null) return undefined;
  const out: Row = {};
  for (const column of columns) out[column] = row[`${prefix}${column}`];
  return out as T;
}

export class PostgresCopilotReader implements CopilotReader {
  constructor(private readonly database: Database) {}

  async read(owner: NoteOwner, noteId: number, organizationId: number): Promise<CopilotReads> {
    const [row] = await this.database.select<Row>(READ, [organizationId, owner.userId, noteId]);
    // The system_settings row is seeded by its migration; reading without it would silently turn overage off.
    if (!row || row.system_overage === null) throw new Error('No system_settings row: its migration seeds it');
    const note = part<Parameters<typeof toNote>[0]>(row, 'n_', NOTE_COLUMNS, 'id');
    const subscription = part<Parameters<typeof toSubscription>[0]>(row, 's_', SUBSCRIPTION_COLUMNS, 'organization_id');
    const productPlan = part<Parameters<typeof toPlan>[0]>(row, 'pp_', PLAN_COLUMNS, 'id');
    const defaultPlan = part<Parameters<typeof toPlan>[0]>(row, 'dp_', PLAN_COLUMNS, 'id');
    return {
      note: note ? toNote(note) : null,
      subscription: subscription ? toSubscription(subscription) : null,
      productPlan: productPlan ? toPlan(productPlan) : null,
      defaultPlan: defaultPlan ? toPlan(defaultPlan) : null,
      organizationOverage: row.organization_overage === true,
      systemOverage: row.system_overage === true,
    };
  }
}
