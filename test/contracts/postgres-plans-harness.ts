import type { Database } from '../../adapters/postgres/database';
import { PostgresNoteRepository } from '../../adapters/postgres/postgres-note-repository';
import { PostgresPlanRepository } from '../../adapters/postgres/postgres-plan-repository';
import { SEEDED_PLANS } from '../../core/plans/seeded-plans';
import type { NoteRepositoryHarness } from './note-repository.contract';
import type { PlanRepositoryHarness } from './plan-repository.contract';
import { postgresTenants } from './tenants';

/** Puts the plan table back to the migration's seed, ids from 1. */
export async function reseedPlans(database: Database): Promise<void> {
  await database.run('truncate plan restart identity', []);
  const now = database.now();
  for (const seed of SEEDED_PLANS) {
    await database.db
      .insertInto('plan')
      .values({
        name: seed.name,
        description: seed.description,
        features: seed.features,
        stripe_product_id: null,
        is_default: seed.isDefault,
        is_active: true,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
}

/** The plan contract over a migrated database; `close` is the caller's (drop or close it). */
export function postgresPlanHarness(database: Database, close: () => Promise<void>): PlanRepositoryHarness {
  const repository = new PostgresPlanRepository(database);
  return {
    async reset() {
      await reseedPlans(database);
      return repository;
    },
    close,
  };
}

/** The note contract over a migrated database. */
export function postgresNoteHarness(database: Database, close: () => Promise<void>): NoteRepositoryHarness {
  return { repository: new PostgresNoteRepository(database), ...postgresTenants(database), close };
}
