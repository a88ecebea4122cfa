import type { NewPlan, Plan, PlanPatch } from '../../core/plans/plan';
import type { PlanRepository, PlanWrite } from '../../core/plans/plan-repository.port';
import { SEEDED_PLANS } from '../../core/plans/seeded-plans';
import { toPlan } from '../postgres/plan-rows';
import type { Row } from '../postgres/schema/tables';
import type { InMemoryStore } from './in-memory-store';

/** As stored: only the features the plan sets, so catalogue defaults apply to the others. */
type PlanRow = Row<'plan'>;

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Plans in the shared InMemoryStore, seeded like the first plans migration (Free is the
 * default). Enforces what the SQL constraints do: case-insensitive unique names, unique product
 * ids, exactly one default, which is active.
 */
export class InMemoryPlanRepository implements PlanRepository {
  private readonly rows: Map<number, PlanRow>;

  constructor(private readonly store: InMemoryStore) {
    this.rows = store.table<PlanRow>('plan');
    if (this.rows.size === 0) {
      const now = store.now();
      for (const seed of SEEDED_PLANS) {
        const id = store.nextId('plan');
        this.rows.set(id, { id, name: seed.name, description: seed.description, features: { ...seed.features }, stripe_product_id: null, is_default: seed.isDefault, is_active: true, created_at: now, updated_at: now });
      }
    }
  }

  list(options: { includeInactive: boolean }): Promise<Plan[]> {
    return this.atomically(() =>
      [...this.rows.values()]
        .filter((row) => options.includeInactive || row.is_active)
        .sort((a, b) => a.id - b.id)
        .map(toPlan),
    );
  }

  findById(id: number): Promise<Plan | null> {
    return this.atomically(() => {
      const row = this.rows.get(id);
      return row ? toPlan(row) : null;
    });
  }

  findDefault(): Promise<Plan> {
    return this.atomically(() => {
      const row = [...this.rows.values()].find((candidate) => candidate.is_default);
      if (!row) throw new Error('No default plan: the plan table lost its invariant');
      return toPlan(row);
    });
  }

  findByStripeProduct(productId: string): Promise<Plan | null> {
    return this.atomically(() => {
      const row = [...this.rows.values()].find((candidate) => candidate.stripe_product_id === productId);
      return row ? toPlan(row) : null;
    });
  }

  create(plan: NewPlan): Promise<PlanWrite> {
    return this.atomically(() => {
      const conflict = this.conflictOf(null, plan.name, plan.stripeProductId);
      if (conflict) return { conflict };
      const id = this.store.nextId('plan');
      const row: PlanRow = {
        id,
        name: plan.name,
        description: plan.description,
        features: { ...plan.features },
        stripe_product_id: plan.stripeProductId,
        is_default: false,
        is_active: true,
        created_at: plan.createdAt,
        updated_at: plan.createdAt,
      };
      this.rows.set(id, row);
      return { plan: toPlan(row) };
    });
  }

  update(id: number, patch: PlanPatch): Promise<PlanWrite | null> {
    return this.atomically((): PlanWrite | null => {
      const row = this.rows.get(id);
      if (!row) return null;
      const next: PlanRow = {
        ...row,
        name: patch.name ?? row.name,
        description: patch.description === undefined ? row.description : patch.description,
        features: { ...row.features, ...patch.features },
        stripe_product_id: patch.stripeProductId === undefined ? row.stripe_product_id : patch.stripeProductId,
        is_active: patch.isActive ?? row.is_active,
        updated_at: patch.updatedAt,
      };
      if (next.is_default && !next.is_active) return { conflict: 'default-inactive' };
      const conflict = this.conflictOf(id, next.name, next.stripe_product_id);
      if (conflict) return { conflict };
      this.rows.set(id, next);
      return { plan: toPlan(next) };
    });
  }

  setDefault(id: number, updatedAt: Date): Promise<PlanWrite | null> {
    return this.atomically((): PlanWrite | null => {
      const row = this.rows.get(id);
      if (!row) return null;
      if (!row.is_active) return { conflict: 'default-inactive' };
      for (const other of this.rows.values()) {
        if (other.is_default && other.id !== id) this.rows.set(other.id, { ...other, is_default: false, updated_at: updatedAt });
      }
      const next = { ...row, is_default: true, updated_at: updatedAt };
      this.rows.set(id, next);
      return { plan: toPlan(next) };
    });
  }

  private conflictOf(id: number | null, name: string, productId: string | null): 'name-taken' | 'product-taken' | null {
    const others = [...this.rows.values()].filter((other) => other.id !== id);
    if (others.some((other) => sameName(other.name, name))) return 'name-taken';
    if (productId !== null && others.some((other) => other.stripe_product_id === productId)) return 'product-taken';
    return null;
  }

  private atomically<T>(operation: () => T): Promise<T> {
    return this.store.unitOfWork.exclusive(operation);
  }
}
