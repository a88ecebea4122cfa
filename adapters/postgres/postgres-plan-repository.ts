import { sql } from 'kysely';
import type { FeatureMap } from '../../core/plans/feature-catalogue';
import type { NewPlan, Plan, PlanPatch } from '../../core/plans/plan';
import type { PlanConflict, PlanRepository, PlanWrite } from '../../core/plans/plan-repository.port';
import type { Selectable, Updateable } from 'kysely';
import type { Database, PreparedSql } from './database';
import { toPlan } from './plan-rows';
import type { Tables } from './schema/tables';
import { columnsOf } from './schema/columns';

type PlanRow = Selectable<Tables['plan']>;

// The two reads that resolve an organization's plan on every plan-gated request: prepared, so
// PostgreSQL plans them once per connection. Named columns, never `select *`: a prepared
// statement fails once a migration changes the table's columns.
const PLAN_COLUMNS = columnsOf('plan');
const FIND_DEFAULT: PreparedSql = { name: 'plan_find_default', text: `select ${PLAN_COLUMNS.join(', ')} from plan where is_default = true` };
const FIND_BY_PRODUCT: PreparedSql = { name: 'plan_find_by_product', text: `select ${PLAN_COLUMNS.join(', ')} from plan where stripe_product_id = $1` };

/** The constraint each refusal of the database stands for (adapters/postgres/schema/plan.entity.ts). */
const CONFLICT_BY_CONSTRAINT: Record<string, PlanConflict> = {
  plan_name_lower_unique: 'name-taken',
  plan_stripe_product_id_unique: 'product-taken',
  plan_default_is_active: 'default-inactive',
  plan_one_default: 'default-inactive',
};

/** A unique or check violation on one of the plan constraints, as the conflict it means; else null. */
function conflictOf(error: unknown): PlanConflict | null {
  for (let cause: unknown = error; cause instanceof Object; cause = (cause as { cause?: unknown }).cause) {
    const { code, constraint } = cause as { code?: string; constraint?: string };
    if ((code === '23505' || code === '23514') && constraint && CONFLICT_BY_CONSTRAINT[constraint]) return CONFLICT_BY_CONSTRAINT[constraint];
  }
  return null;
}

async function written(write: () => Promise<PlanRow | undefined>): Promise<PlanWrite | null> {
  try {
    const row = await write();
    return row ? { plan: toPlan(row) } : null;
  } catch (error) {
    const conflict = conflictOf(error);
    if (conflict) return { conflict };
    throw error;
  }
}

/**
 * Plans in PostgreSQL. Uniqueness and the active default are the table's constraints
 * (case-insensitive name, product, one default, default active), so concurrent writers cannot
 * break them; a refusal comes back as the conflict it means. The plan writes are single
 * statements, or set-default's own transaction: not meant to run inside a caller's transaction,
 * which a refused statement would abort.
 */
export class PostgresPlanRepository implements PlanRepository {
  constructor(private readonly database: Database) {}

  async list(options: { includeInactive: boolean }): Promise<Plan[]> {
    let query = this.database.db.selectFrom('plan').selectAll().orderBy('id');
    if (!options.includeInactive) query = query.where('is_active', '=', true);
    return (await query.execute()).map(toPlan);
  }

  async findById(id: number): Promise<Plan | null> {
    const row = await this.database.db.selectFrom('plan').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toPlan(row) : null;
  }

  async findDefault(): Promise<Plan> {
    const [row] = await this.database.select<PlanRow>(FIND_DEFAULT, []);
    if (!row) throw new Error('No default plan: the plan table lost its invariant');
    return toPlan(row);
  }

  async findByStripeProduct(productId: string): Promise<Plan | null> {
    const [row] = await this.database.select<PlanRow>(FIND_BY_PRODUCT, [productId]);
    return row ? toPlan(row) : null;
  }

  async create(plan: NewPlan): Promise<PlanWrite> {
    const result = await written(() =>
      this.database.db
        .insertInto('plan')
        .values({
          name: plan.name,
          description: plan.description,
          features: plan.features,
          stripe_product_id: plan.stripeProductId,
          is_default: false,
          is_active: true,
          created_at: plan.createdAt,
          updated_at: plan.createdAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
    );
    return result!;
  }

  async update(id: number, patch: PlanPatch): Promise<PlanWrite | null> {
    return written(async () => {
      const changes: Updateable<Tables['plan']> = { updated_at: patch.updatedAt };
      if (patch.name !== undefined) changes.name = patch.name;
      if (patch.description !== undefined) changes.description = patch.description;
      if (patch.stripeProductId !== undefined) changes.stripe_product_id = patch.stripeProductId;
      if (patch.isActive !== undefined) changes.is_active = patch.isActive;
      // Merged in the statement (jsonb `||`: the patch's keys win), so concurrent patches of
      // different features both land.
      const merged = patch.features === undefined ? {} : { features: sql<FeatureMap>`features || ${JSON.stringify(patch.features)}::jsonb` };
      return this.database.db.updateTable('plan').set({ ...changes, ...merged }).where('id', '=', id).returningAll().executeTakeFirst();
    });
  }

  async setDefault(id: number, updatedAt: Date): Promise<PlanWrite | null> {
    return this.database.transaction(async () => {
      // Every plan row locked, in id order: concurrent set-defaults queue here, and each then
      // reads the default the previous one committed.
      await this.database.select('select id from plan order by id for update', []);
      const target = await this.findById(id);
      if (!target) return null;
      if (!target.isActive) return { conflict: 'default-inactive' as const };
      // Two statements: the one-default index is checked row by row, so the old default goes first.
      await this.database.run('update plan set is_default = false, updated_at = $1 where is_default and id <> $2', [updatedAt, id]);
      const rows = await this.database.select<PlanRow>('update plan set is_default = true, updated_at = $1 where id = $2 returning *', [
        updatedAt,
        id,
      ]);
      return { plan: toPlan(rows[0]!) };
    });
  }
}
